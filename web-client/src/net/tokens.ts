import type { KeyValueStorage } from "./env";

/** Per-room secrets kept in localStorage: the seat token, and the invite link for the creator. */
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
  setToken(code: string, token: string): void {
    this.storage.setItem(this.key("token", code), token);
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
}
