import type { KeyValueStorage } from "./env";

/** A room this device holds a seat in, and when this device last opened it (ms since 1970). */
export interface KnownRoom {
  code: string;
  at: number;
}

/** The most rooms the list keeps (the oldest are dropped from the list, not their seats). */
const KNOWN_ROOMS = 50;

/** Per-room secrets kept in localStorage: the seat token, and for the creator the invite link and
 *  the join code; and the list of rooms this device holds a seat in, newest first. */
export class TokenStore {
  constructor(
    private storage: KeyValueStorage,
    private prefix = "evr.",
  ) {}

  private key(kind: string, code: string): string {
    return `${this.prefix}${kind}.${code}`;
  }

  getToken(code: string): string | null {
    return this.storage.getItem(this.key("token", code));
  }
  /** Keeps the seat token of room `code` and puts the room at the top of this device's rooms. */
  setToken(code: string, token: string, now = Date.now()): void {
    this.storage.setItem(this.key("token", code), token);
    this.touch(code, now);
  }
  clearToken(code: string): void {
    this.storage.removeItem(this.key("token", code));
  }

  getInvite(code: string): string | null {
    return this.storage.getItem(this.key("invite", code));
  }
  setInvite(code: string, inviteUrl: string): void {
    this.storage.setItem(this.key("invite", code), inviteUrl);
  }

  getJoinCode(code: string): string | null {
    return this.storage.getItem(this.key("joincode", code));
  }
  setJoinCode(code: string, joinCode: string): void {
    this.storage.setItem(this.key("joincode", code), joinCode);
  }

  /** The rooms this device holds a seat in, the one opened last first. */
  rooms(): KnownRoom[] {
    return this.readRooms().filter((r) => this.getToken(r.code) !== null);
  }

  /** Room `code` was opened on this device now: it moves to the top of the list. */
  touch(code: string, now = Date.now()): void {
    const rest = this.readRooms().filter((r) => r.code !== code);
    const list = [{ code, at: now }, ...rest].slice(0, KNOWN_ROOMS);
    this.storage.setItem(`${this.prefix}rooms`, JSON.stringify(list));
  }

  /** Forgets room `code` on this device: its seat token, invite, join code and list entry. */
  forget(code: string): void {
    for (const kind of ["token", "invite", "joincode"]) this.storage.removeItem(this.key(kind, code));
    const list = this.readRooms().filter((r) => r.code !== code);
    this.storage.setItem(`${this.prefix}rooms`, JSON.stringify(list));
  }

  /** The stored list; a device that kept seats before the list existed has them found by key. */
  private readRooms(): KnownRoom[] {
    const raw = this.storage.getItem(`${this.prefix}rooms`);
    if (raw === null) return this.roomsFromKeys();
    try {
      const parsed: unknown = JSON.parse(raw);
      if (!Array.isArray(parsed)) return [];
      return parsed.filter(
        (r): r is KnownRoom =>
          typeof r === "object" && r !== null && typeof r.code === "string" && typeof r.at === "number",
      );
    } catch {
      return [];
    }
  }

  private roomsFromKeys(): KnownRoom[] {
    const { length, key } = this.storage;
    if (length === undefined || !key) return [];
    const tokenPrefix = `${this.prefix}token.`;
    const out: KnownRoom[] = [];
    for (let i = 0; i < length; i++) {
      const k = key.call(this.storage, i);
      if (k?.startsWith(tokenPrefix)) out.push({ code: k.slice(tokenPrefix.length), at: 0 });
    }
    return out;
  }
}
