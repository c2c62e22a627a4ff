import type { Clock, SocketLike } from "../src/net/env";
import {
  type ClientMsg,
  type Fairness,
  type LogEntry,
  PROTOCOL_VERSION,
  type SeatSummary,
  type ServerMsg,
  type View,
} from "../src/net/protocol";

export class FakeSocket implements SocketLike {
  readyState = 0;
  onopen: ((ev: unknown) => void) | null = null;
  onmessage: ((ev: { data: unknown }) => void) | null = null;
  onclose: ((ev: { code?: number; reason?: string }) => void) | null = null;
  onerror: ((ev: unknown) => void) | null = null;
  sent: ClientMsg[] = [];
  closed = false;
  constructor(public url: string) {}
  send(data: string): void {
    if (this.readyState !== 1) throw new Error("send on a socket that is not open");
    this.sent.push(JSON.parse(data) as ClientMsg);
  }
  close(): void {
    this.closed = true;
    this.readyState = 3;
  }
  // test side
  serverOpen(): void {
    this.readyState = 1;
    this.onopen?.({});
  }
  serverSend(msg: ServerMsg): void {
    this.onmessage?.({ data: JSON.stringify(msg) });
  }
  serverClose(code = 1006): void {
    this.readyState = 3;
    this.onclose?.({ code });
  }
  last(): ClientMsg | undefined {
    return this.sent[this.sent.length - 1];
  }
}

export class FakeSockets {
  all: FakeSocket[] = [];
  factory = (url: string): FakeSocket => {
    const s = new FakeSocket(url);
    this.all.push(s);
    return s;
  };
  get current(): FakeSocket {
    const s = this.all[this.all.length - 1];
    if (!s) throw new Error("no socket yet");
    return s;
  }
}

/** A manual clock: timers fire only when `advance` passes them. */
export class FakeClock implements Clock {
  t = 0;
  private nextId = 1;
  timers = new Map<number, { at: number; fn: () => void }>();
  now(): number {
    return this.t;
  }
  setTimeout(fn: () => void, ms: number): number {
    const id = this.nextId++;
    this.timers.set(id, { at: this.t + ms, fn });
    return id;
  }
  clearTimeout(h: unknown): void {
    this.timers.delete(h as number);
  }
  advance(ms: number): void {
    const end = this.t + ms;
    for (;;) {
      let best: [number, { at: number; fn: () => void }] | null = null;
      for (const e of this.timers) if (e[1].at <= end && (!best || e[1].at < best[1].at)) best = e;
      if (!best) break;
      this.timers.delete(best[0]);
      this.t = best[1].at;
      best[1].fn();
    }
    this.t = end;
  }
  /** delays of the pending timers, soonest first */
  pending(): number[] {
    return [...this.timers.values()].map((e) => e.at - this.t).sort((a, b) => a - b);
  }
}

export const emptyPlayer = (faction: "rebel" | "imperial") => ({
  faction,
  influence: 0,
  vp: 0,
  won_events: [],
  play_area: [],
  total: 0,
  capacity_left: 4,
  deck_size: 20,
  deck_top: null,
  deck_contents: null,
  discard_pile: [],
  reserve_size: 4,
  reserve_known: [],
  characters_chosen: true,
  characters: null,
  unused_strategies: null,
  unused_strategy_count: 5,
  used_strategies: [],
  strategy: { state: "hidden" as const },
  modifiers: { infiltrated: false, diversion: false, located: false },
  next_modifiers: { infiltrated: false, diversion: false, located: false },
});

export function makeView(over: Partial<View> = {}): View {
  return {
    viewer: { seat: "rebel" },
    mode: "full",
    phase: "struggle",
    round: 1,
    event: { event: "Battle of Yavin", capacity: 4, objective: 15, vp: 3, influence: 0, effect: "none" },
    event_deck_size: 20,
    known_next_events: [],
    balance: "imperial",
    turn: "rebel",
    last_action_was_pass: false,
    struggle_actions: 0,
    rebel: emptyPlayer("rebel"),
    imperial: emptyPlayer("imperial"),
    planning: null,
    pending: null,
    rounds: [],
    outcome: null,
    legal_actions: [],
    log: [],
    ...over,
  };
}

/** A seed, a salt and their commitment, SHA-256(salt ‖ seed) (computed with `sha256sum`). */
export const FAIR_SEED = "01".repeat(32);
export const FAIR_SALT = "02".repeat(16);
export const FAIR_COMMITMENT = "13015f2adf5a6f8985fbee604b345ed6191ec277be9480d3b5f0cc62b48bbb68";

export const ROOM = {
  code: "ABCDEFGHJK",
  options: { side: "random" as const, mode: "full" as const, spectators: "anyone_with_link" as const },
  game_number: 1,
  rematch_requested: [false, false] as [boolean, boolean],
  forfeit_winner: null,
  forfeit_reason: null,
  // SHA-256(salt ‖ seed) of FAIR_SALT and FAIR_SEED below; seed and salt are told after the game
  fairness: { commitment: FAIR_COMMITMENT, seed: null, salt: null } as Fairness | null,
  reveal_agreed: [false, false] as [boolean, boolean],
  names: [null, null] as [string | null, string | null],
};

export const PRESENCE = {
  seats: [
    { taken: true, connected: true, claim_in_seconds: null },
    { taken: true, connected: true, claim_in_seconds: null },
  ] as [
    { taken: boolean; connected: boolean; claim_in_seconds: number | null },
    { taken: boolean; connected: boolean; claim_in_seconds: number | null },
  ],
  spectators: 0,
};

/** A welcome; `log` (the game's whole log) defaults to the view's round log. */
export function welcome(
  seq: number,
  view: View = makeView(),
  missed: LogEntry[] | null = null,
  log: LogEntry[] = view.log,
): ServerMsg {
  return {
    type: "welcome",
    version: PROTOCOL_VERSION,
    you: { role: "seat", faction: "rebel" },
    room: ROOM,
    seq,
    view,
    presence: PRESENCE,
    log,
    missed,
    chat: [],
  };
}

/** A fetch that answers every request with a room that has no finished game (`GET /api/rooms/{code}/games`):
 *  for component tests that render the game-over screen, which lists the room's games. */
export async function noGamesFetch(): Promise<Response> {
  return new Response(JSON.stringify({ code: ROOM.code, games: [] }), {
    status: 200,
    headers: { "content-type": "application/json" },
  });
}

/** A seat's summary for the list of rooms (`GET …/seat`): the Rebel's seat of a friend's room, their
 *  turn in round 1, with `over` changed. */
export function summary(code: string, over: Partial<SeatSummary>): SeatSummary {
  return {
    code,
    you: "rebel",
    names: ["Ana", "Ben"],
    opponent: { kind: "friend" },
    game_number: 1,
    state: "their_turn",
    round: 1,
    vp: [0, 0],
    outcome: null,
    forfeit_winner: null,
    forfeit_reason: null,
    clock: null,
    ...over,
  };
}
