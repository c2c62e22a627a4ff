// The client-side store: plain TS over @preact/signals-core (no Preact components here).
import { batch, computed, signal } from "@preact/signals-core";
import { t } from "../i18n";
import type { Connection, ConnectionStatus } from "../net/connection";
import type {
  Action,
  Card,
  ChatBody,
  ChatChannel,
  ChatMessage,
  ClockView,
  ErrorCode,
  LogEntry,
  Presence,
  Role,
  RoomInfo,
  ServerMsg,
  View,
} from "../net/protocol";
import {
  bottomFaction,
  type CardActions,
  isMyTurn,
  legalByCard,
  legalByKind,
  myFaction,
  pendingTargets,
  totalStatus,
  waitingFor,
} from "./derived";

export interface LastError {
  code: ErrorCode;
  message: string;
  at: number;
}

const LOG_LIMIT = 500;
/** Chat messages kept in the page (the server sends the latest 100 on joining, then each new one). */
const CHAT_LIMIT = 300;

export class GameStore {
  readonly status = signal<ConnectionStatus>("idle");
  readonly retryInMs = signal<number | null>(null);
  /** why the connection was refused for good */
  readonly failure = signal<ErrorCode | null>(null);
  readonly room = signal<RoomInfo | null>(null);
  readonly role = signal<Role | null>(null);
  readonly seq = signal<number | null>(null);
  readonly view = signal<View | null>(null);
  readonly presence = signal<Presence | null>(null);
  readonly log = signal<LogEntry[]>([]);
  /** the events of the last update (for highlights) */
  readonly lastEvents = signal<LogEntry[]>([]);
  readonly lastError = signal<LastError | null>(null);
  /** ids of actions sent and not yet answered */
  readonly inFlight = signal<string[]>([]);
  /** the clocks as last told, and when (this page's clock, ms), in a room with a time control */
  readonly clock = signal<{ view: ClockView; at: number } | null>(null);
  /** the game ended outside the rules (a claimed win, a clock ran out) */
  readonly forfeited = computed(() => !!this.room.value?.forfeit_reason);
  /** the room's chat as this connection may read it, oldest first */
  readonly chat = signal<ChatMessage[]>([]);
  /** the store of a replay page: a past step is shown, nothing is to be decided or coached */
  readonly replaying = signal(false);

  readonly me = computed(() => myFaction(this.role.value));
  readonly bottom = computed(() => bottomFaction(this.role.value));
  readonly isSpectator = computed(() => this.role.value?.role === "spectator");
  /** the players' display names, [rebel, imperial] (null: shown as the side), as the room tells
   *  them (a replay page sets them from its game) */
  readonly givenNames = signal<readonly [string | null, string | null]>([null, null]);
  /** the names the table shows: the given ones, and the computer's seat named as what it is
   *  ("Computer — easy", in the reader's language) rather than by its side */
  readonly names = computed((): readonly [string | null, string | null] => {
    const given = this.givenNames.value;
    const opponent = this.room.value?.options.opponent;
    const me = this.me.value;
    if (opponent?.kind !== "computer" || !me) return given;
    const computer = me === "rebel" ? 1 : 0;
    const named: [string | null, string | null] = [given[0], given[1]];
    named[computer] ??= t(`opponent.${opponent.level}`);
    return named;
  });
  /** true while an action of ours is unanswered: the UI offers nothing then */
  readonly busy = computed(() => this.inFlight.value.length > 0);
  readonly myTurn = computed(() => (this.view.value ? isMyTurn(this.view.value, this.role.value) : false));
  readonly waitingFor = computed(() => (this.view.value ? waitingFor(this.view.value) : null));
  readonly legal = computed(() => (this.view.value ? legalByKind(this.view.value) : {}));
  readonly legalCards = computed(() => (this.view.value ? legalByCard(this.view.value) : new Map<Card, CardActions>()));
  readonly targets = computed(() =>
    this.view.value ? pendingTargets(this.view.value, this.role.value) : new Set<string>(),
  );
  readonly myTotal = computed(() => {
    const v = this.view.value;
    const me = this.me.value;
    return v && me ? totalStatus(v, me) : null;
  });
  readonly opponentSeat = computed(() => {
    const p = this.presence.value;
    const me = this.me.value;
    if (!p || !me) return null;
    return p.seats[me === "rebel" ? 1 : 0];
  });

  private conn: Connection | null = null;
  private unsubscribe: (() => void) | null = null;

  constructor(private now: () => number = () => Date.now()) {}

  /** Follow a connection: every message updates the store. */
  attach(conn: Connection): void {
    this.detach();
    this.conn = conn;
    this.unsubscribe = conn.subscribe((e) => {
      switch (e.type) {
        case "status":
          batch(() => {
            this.status.value = e.status;
            if (e.status === "failed") {
              this.retryInMs.value = null;
              this.failure.value = e.code;
            } else {
              this.retryInMs.value = e.retryInMs ?? null;
            }
          });
          break;
        case "message":
          this.apply(e.msg);
          break;
        case "acked":
          this.dropInFlight(e.sent.action_id);
          break;
        case "refused":
          this.dropInFlight(e.sent.action_id);
          break;
      }
    });
  }

  detach(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
    this.conn = null;
  }

  private dropInFlight(id: string): void {
    if (this.inFlight.value.includes(id)) this.inFlight.value = this.inFlight.value.filter((x) => x !== id);
  }

  /** Apply one server message (also usable without a connection, e.g. in tests). */
  apply(msg: ServerMsg): void {
    batch(() => {
      switch (msg.type) {
        case "welcome": {
          // A welcome carries the game's whole log as we may know it (a reload or a reconnect shows
          // everything). After `stale_action` we already hold it all: the welcome's seq is the last
          // update we saw (updates and the welcome travel in order).
          const sameGame = this.seq.value !== null && this.room.value?.game_number === msg.room.game_number;
          const log = sameGame && msg.seq === this.seq.value ? this.log.value : trim([...msg.log]);
          this.room.value = msg.room;
          this.givenNames.value = msg.room.names;
          this.role.value = msg.you;
          this.seq.value = msg.seq;
          this.view.value = msg.view;
          this.presence.value = msg.presence;
          this.log.value = log;
          this.lastEvents.value = msg.missed ?? [];
          this.chat.value = mergeChat([], msg.chat);
          this.clock.value = msg.clock ? { view: msg.clock, at: this.now() } : null;
          break;
        }
        case "clock":
          this.clock.value = { view: msg.clock, at: this.now() };
          break;
        case "chat":
          this.chat.value = mergeChat(this.chat.value, msg.messages);
          break;
        case "update":
          this.seq.value = msg.seq;
          // only the fields that changed since the view we hold (seq - 1) come; `null`: emptied
          if (this.view.value) this.view.value = { ...this.view.value, ...msg.changes };
          this.log.value = trim([...this.log.value, ...msg.events]);
          this.lastEvents.value = msg.events;
          if (msg.clock) this.clock.value = { view: msg.clock, at: this.now() };
          break;
        case "room":
          this.room.value = msg.room;
          this.givenNames.value = msg.room.names;
          break;
        case "presence":
          this.presence.value = msg.presence;
          break;
        case "error":
          if (msg.code !== "stale_action") {
            this.lastError.value = { code: msg.code, message: msg.message, at: this.now() };
          }
          break;
        case "ack":
        case "pong":
          break;
      }
    });
  }

  clearError(): void {
    this.lastError.value = null;
  }

  /** Send a legal action from the current view. Returns false when nothing was sent. */
  act(action: Action): boolean {
    if (!this.conn || this.busy.value) return false;
    const id = this.conn.sendAction(action, this.seq.value);
    if (id === null) return false;
    this.inFlight.value = [...this.inFlight.value, id];
    this.lastError.value = null;
    return true;
  }

  rematch(): boolean {
    return this.conn?.rematch() ?? false;
  }

  claimWin(): boolean {
    return this.conn?.claimWin() ?? false;
  }

  /** Sends a chat message; false when it could not be sent (not connected). */
  sendChat(channel: ChatChannel, body: ChatBody, name: string | null = null): boolean {
    return this.conn?.chat(channel, body, name) ?? false;
  }

  revealReplay(): boolean {
    return this.conn?.revealReplay() ?? false;
  }

  /** Sets (or with `null` clears) this seat's display name; false when not connected. */
  setName(name: string | null): boolean {
    return this.conn?.setName(name) ?? false;
  }

  retryNow(): void {
    this.conn?.retryNow();
  }
}

/** `known` with `incoming` added, each message once (by id), in id order, the latest CHAT_LIMIT. */
function mergeChat(known: ChatMessage[], incoming: ChatMessage[]): ChatMessage[] {
  const byId = new Map(known.map((m) => [m.id, m]));
  for (const m of incoming) byId.set(m.id, m);
  const all = [...byId.values()].sort((a, b) => a.id - b.id);
  return all.length > CHAT_LIMIT ? all.slice(all.length - CHAT_LIMIT) : all;
}

function trim(log: LogEntry[]): LogEntry[] {
  return log.length > LOG_LIMIT ? log.slice(log.length - LOG_LIMIT) : log;
}
