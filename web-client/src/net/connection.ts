import { type BackoffOptions, backoffDelay, DEFAULT_BACKOFF } from "./backoff";
import { type Clock, OPEN, type SocketFactory, type SocketLike, type TimerHandle } from "./env";
import {
  type Action,
  type ChatBody,
  type ChatChannel,
  type ClientMsg,
  type ErrorCode,
  isFatal,
  PROTOCOL_VERSION,
  type ServerMsg,
} from "./protocol";

/** Refusals of a frame the server did not read, so they carry no action_id. */
const UNATTRIBUTED_REFUSALS: readonly ErrorCode[] = ["rate_limited", "frame_too_large", "bad_message"];

/**
 * - `connecting`: a socket is opening, or hello was sent and the welcome has not come yet
 * - `ready`: welcomed; the view is live
 * - `waiting`: the connection dropped; a reconnect is scheduled (see `nextRetryAt`)
 * - `failed`: refused for good (bad token, room gone, …); no more retries
 * - `stopped`: closed by us
 */
export type ConnectionStatus = "idle" | "connecting" | "ready" | "waiting" | "failed" | "stopped";

export interface SentAction {
  action_id: string;
  based_on: number;
  action: Action;
}

export type ConnectionEvent =
  | { type: "status"; status: Exclude<ConnectionStatus, "failed">; retryInMs?: number }
  /** refused for good: the fatal error's code */
  | { type: "status"; status: "failed"; code: ErrorCode }
  | { type: "message"; msg: ServerMsg }
  /** an action of ours was applied (`ack`) */
  | { type: "acked"; sent: SentAction; seq: number }
  /** an action of ours was refused (error with its action_id, or dropped after a resume) */
  | { type: "refused"; sent: SentAction; code: ErrorCode; message: string };

export interface ConnectionOptions {
  url: string;
  /** the seat token; `null` to watch */
  token: string | null;
  socketFactory: SocketFactory;
  clock: Clock;
  random?: () => number;
  backoff?: BackoffOptions;
  /** send a `ping` after this long without any message (ms) */
  pingIntervalMs?: number;
  /** give the socket up when nothing arrives this long after a `ping` (ms) */
  pongTimeoutMs?: number;
  /** prefix of generated action ids (unique per page load) */
  idPrefix?: string;
}

/**
 * One room's WebSocket: hello/resume, reconnect with backoff and jitter, seq tracking, actions with
 * `based_on` and unique `action_id`s, keep-alive. Framework-free; everything external is injected.
 */
export class Connection {
  private socket: SocketLike | null = null;
  private listeners = new Set<(e: ConnectionEvent) => void>();
  private attempt = 0;
  private retryTimer: TimerHandle | null = null;
  private pingTimer: TimerHandle | null = null;
  private pongTimer: TimerHandle | null = null;
  private counter = 0;
  private readonly idPrefix: string;
  private readonly random: () => number;
  private readonly backoff: BackoffOptions;
  private readonly pingIntervalMs: number;
  private readonly pongTimeoutMs: number;
  /** the last `seq` seen (welcome or update); `null` before the first welcome */
  seq: number | null = null;
  status: ConnectionStatus = "idle";
  /** actions sent and not yet acknowledged or refused, by action_id */
  readonly inFlight = new Map<string, SentAction>();
  /** action ids acknowledged so far (a repeated ack is recognised, not applied twice) */
  readonly acked = new Set<string>();

  constructor(private opts: ConnectionOptions) {
    this.random = opts.random ?? Math.random;
    this.backoff = opts.backoff ?? DEFAULT_BACKOFF;
    this.pingIntervalMs = opts.pingIntervalMs ?? 25_000;
    this.pongTimeoutMs = opts.pongTimeoutMs ?? 10_000;
    this.idPrefix = opts.idPrefix ?? Math.floor(this.random() * 0x7fffffff).toString(36);
  }

  subscribe(fn: (e: ConnectionEvent) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  private emit(e: ConnectionEvent): void {
    for (const fn of [...this.listeners]) fn(e);
  }

  private setStatus(status: Exclude<ConnectionStatus, "failed">, extra: { retryInMs?: number } = {}): void {
    this.status = status;
    this.emit({ type: "status", status, ...extra });
  }

  get token(): string | null {
    return this.opts.token;
  }

  start(): void {
    if (this.status === "connecting" || this.status === "ready") return;
    this.open();
  }

  /** Close for good (leaving the page or the room). */
  stop(): void {
    this.clearTimers();
    if (this.retryTimer !== null) this.opts.clock.clearTimeout(this.retryTimer);
    this.retryTimer = null;
    const s = this.socket;
    this.socket = null;
    if (s) {
      s.onclose = null;
      s.onmessage = null;
      s.onerror = null;
      s.onopen = null;
      try {
        s.close(1000, "bye");
      } catch {
        /* ignore */
      }
    }
    this.setStatus("stopped");
  }

  private open(): void {
    this.retryTimer = null;
    this.setStatus("connecting");
    let s: SocketLike;
    try {
      s = this.opts.socketFactory(this.opts.url);
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.socket = s;
    s.onopen = () => {
      if (this.socket !== s) return;
      this.send({ type: "hello", version: PROTOCOL_VERSION, token: this.opts.token, last_seq: this.seq });
      this.armPing();
    };
    s.onmessage = (ev) => {
      if (this.socket !== s) return;
      if (typeof ev.data !== "string") return;
      let msg: ServerMsg;
      try {
        msg = JSON.parse(ev.data) as ServerMsg;
      } catch {
        return;
      }
      this.armPing();
      this.handle(msg);
    };
    s.onclose = () => {
      if (this.socket !== s) return;
      this.socket = null;
      this.clearTimers();
      if (this.status === "failed" || this.status === "stopped") return;
      this.scheduleReconnect();
    };
    s.onerror = () => {
      /* onclose follows */
    };
  }

  private scheduleReconnect(): void {
    const delay = backoffDelay(this.attempt, this.random(), this.backoff);
    this.attempt += 1;
    this.setStatus("waiting", { retryInMs: delay });
    this.retryTimer = this.opts.clock.setTimeout(() => this.open(), delay);
  }

  /** Reconnect now instead of waiting for the scheduled retry. */
  retryNow(): void {
    if (this.status !== "waiting") return;
    if (this.retryTimer !== null) this.opts.clock.clearTimeout(this.retryTimer);
    this.open();
  }

  private clearTimers(): void {
    if (this.pingTimer !== null) this.opts.clock.clearTimeout(this.pingTimer);
    if (this.pongTimer !== null) this.opts.clock.clearTimeout(this.pongTimer);
    this.pingTimer = null;
    this.pongTimer = null;
  }

  /** After any message: ping again after a quiet interval; a late answer drops the socket. */
  private armPing(): void {
    this.clearTimers();
    this.pingTimer = this.opts.clock.setTimeout(() => {
      this.pingTimer = null;
      this.send({ type: "ping" });
      this.pongTimer = this.opts.clock.setTimeout(() => {
        this.pongTimer = null;
        // Half-open connection: give it up and resume on a new one.
        const s = this.socket;
        if (s) {
          try {
            s.close(4000, "keep-alive timeout");
          } catch {
            /* ignore */
          }
          s.onclose?.({ code: 4000 });
        }
      }, this.pongTimeoutMs);
    }, this.pingIntervalMs);
  }

  private send(msg: ClientMsg): boolean {
    const s = this.socket;
    if (!s || s.readyState !== OPEN) return false;
    s.send(JSON.stringify(msg));
    return true;
  }

  private handle(msg: ServerMsg): void {
    switch (msg.type) {
      case "welcome": {
        const resumed = this.seq !== null;
        this.seq = msg.seq;
        this.attempt = 0;
        this.setStatus("ready");
        this.emit({ type: "message", msg });
        if (resumed) this.settleAfterWelcome(msg.seq);
        return;
      }
      case "update":
        this.seq = msg.seq;
        this.emit({ type: "message", msg });
        return;
      case "ack": {
        const sent = this.inFlight.get(msg.action_id);
        this.inFlight.delete(msg.action_id);
        const repeated = this.acked.has(msg.action_id);
        this.acked.add(msg.action_id);
        if (sent && !repeated) this.emit({ type: "acked", sent, seq: msg.seq });
        this.emit({ type: "message", msg });
        return;
      }
      case "error": {
        if (msg.action_id !== null) {
          const sent = this.inFlight.get(msg.action_id);
          this.inFlight.delete(msg.action_id);
          if (sent) this.emit({ type: "refused", sent, code: msg.code, message: msg.message });
        } else if (UNATTRIBUTED_REFUSALS.includes(msg.code)) {
          // The frame was dropped before it was read (rate limit, size): the server cannot name the
          // action. Give up every action in flight; the next view tells what really happened.
          for (const sent of [...this.inFlight.values()]) {
            this.inFlight.delete(sent.action_id);
            this.emit({ type: "refused", sent, code: msg.code, message: msg.message });
          }
        }
        this.emit({ type: "message", msg });
        if (isFatal(msg.code)) {
          this.clearTimers();
          this.status = "failed";
          this.emit({ type: "status", status: "failed", code: msg.code });
          const s = this.socket;
          this.socket = null;
          if (s) {
            s.onclose = null;
            try {
              s.close(1000, msg.code);
            } catch {
              /* ignore */
            }
          }
        }
        // `stale_action`: the server sends a fresh welcome right after; nothing else to do.
        return;
      }
      default:
        this.emit({ type: "message", msg });
    }
  }

  /**
   * After a resume: an action still in flight was decided on `based_on`. If the game is still at
   * that seq, it was not applied: send it again with the same id (the server ignores repeats). If
   * the game moved on, the fresh view supersedes it: forget it.
   */
  private settleAfterWelcome(seq: number): void {
    for (const sent of [...this.inFlight.values()]) {
      if (sent.based_on === seq) {
        this.send({ type: "action", based_on: sent.based_on, action_id: sent.action_id, action: sent.action });
      } else {
        this.inFlight.delete(sent.action_id);
        this.emit({ type: "refused", sent, code: "stale_action", message: "the game moved on" });
      }
    }
  }

  private nextActionId(): string {
    this.counter += 1;
    return `${this.idPrefix}-${this.counter}`;
  }

  /**
   * Send a game action decided on the view of `basedOn` (default: the last seq seen). Returns the
   * action id, or `null` when there is no welcomed connection (nothing was sent).
   */
  sendAction(action: Action, basedOn: number | null = this.seq): string | null {
    if (this.status !== "ready" || basedOn === null) return null;
    const sent: SentAction = { action_id: this.nextActionId(), based_on: basedOn, action };
    this.inFlight.set(sent.action_id, sent);
    if (!this.send({ type: "action", based_on: sent.based_on, action_id: sent.action_id, action })) {
      // Kept in flight: resent after the resume if the game did not move on.
    }
    return sent.action_id;
  }

  rematch(): boolean {
    return this.status === "ready" && this.send({ type: "rematch" });
  }

  claimWin(): boolean {
    return this.status === "ready" && this.send({ type: "claim_win" });
  }

  /** A chat message (a spectator's carries the name they chose). */
  chat(channel: ChatChannel, body: ChatBody, name: string | null): boolean {
    return this.status === "ready" && this.send({ type: "chat", channel, body, name });
  }

  /** This player agrees to reveal the finished game in its replay. */
  revealReplay(): boolean {
    return this.status === "ready" && this.send({ type: "reveal_replay" });
  }

  /** Sets (or with `null` clears) this seat's display name. */
  setName(name: string | null): boolean {
    return this.status === "ready" && this.send({ type: "set_name", name });
  }
}
