import { afterEach, describe, expect, it, vi } from "vitest";
import { ERROR_CODES } from "../../proto/ts/errorCodes";
import { backoffDelay, DEFAULT_BACKOFF } from "../src/net/backoff";
import { Connection, type ConnectionEvent } from "../src/net/connection";
import { MemoryStorage, realClock, wsUrlFor } from "../src/net/env";
import { PROTOCOL_VERSION } from "../src/net/protocol";
import { TokenStore } from "../src/net/tokens";
import { FakeClock, FakeSockets, welcome } from "./fakes";

function setup(opts: { token?: string | null; random?: () => number } = {}) {
  const sockets = new FakeSockets();
  const clock = new FakeClock();
  const events: ConnectionEvent[] = [];
  const conn = new Connection({
    url: "ws://test/ws/ABCDEFGHJK",
    token: opts.token === undefined ? "tok" : opts.token,
    socketFactory: sockets.factory,
    clock,
    random: opts.random ?? (() => 0.5),
    idPrefix: "p",
  });
  conn.subscribe((e) => events.push(e));
  return { sockets, clock, conn, events };
}

describe("hello and resume", () => {
  it("says hello with version 1, the token and no last_seq on a fresh start", () => {
    const { sockets, conn } = setup();
    conn.start();
    expect(conn.status).toBe("connecting");
    sockets.current.serverOpen();
    expect(sockets.current.sent).toEqual([{ type: "hello", version: PROTOCOL_VERSION, token: "tok", last_seq: null }]);
  });

  it("spectators say hello with a null token", () => {
    const { sockets, conn } = setup({ token: null });
    conn.start();
    sockets.current.serverOpen();
    expect(sockets.current.last()).toMatchObject({ type: "hello", token: null });
  });

  it("resumes with the last seq after a drop", () => {
    const { sockets, clock, conn } = setup();
    conn.start();
    sockets.current.serverOpen();
    sockets.current.serverSend(welcome(41));
    expect(conn.status).toBe("ready");
    sockets.current.serverSend({ type: "update", seq: 42, changes: {}, events: [] });
    sockets.current.serverClose();
    expect(conn.status).toBe("waiting");
    clock.advance(DEFAULT_BACKOFF.maxMs);
    expect(sockets.all.length).toBe(2);
    sockets.current.serverOpen();
    expect(sockets.current.sent[0]).toEqual({ type: "hello", version: PROTOCOL_VERSION, token: "tok", last_seq: 42 });
  });

  it("stops retrying after a fatal error", () => {
    const { sockets, clock, conn, events } = setup();
    conn.start();
    sockets.current.serverOpen();
    sockets.current.serverSend({ type: "error", code: "bad_token", message: "no", action_id: null });
    expect(conn.status).toBe("failed");
    expect(sockets.current.closed).toBe(true);
    clock.advance(60_000);
    expect(sockets.all.length).toBe(1);
    expect(events.some((e) => e.type === "status" && e.status === "failed" && e.code === "bad_token")).toBe(true);
  });

  it("stops after exactly the errors the protocol's table calls fatal", () => {
    for (const [code, info] of Object.entries(ERROR_CODES)) {
      const { sockets, conn } = setup();
      conn.start();
      sockets.current.serverOpen();
      // raw JSON: the table's keys are plain strings to TypeScript
      sockets.current.onmessage?.({ data: JSON.stringify({ type: "error", code, message: "m", action_id: null }) });
      expect(conn.status, code).toBe(info.fatal ? "failed" : "connecting");
    }
    expect(Object.values(ERROR_CODES).some((info) => info.fatal)).toBe(true);
  });

  it("keeps retrying after an error code it does not know (a newer server)", () => {
    const { sockets, conn } = setup();
    conn.start();
    sockets.current.serverOpen();
    sockets.current.onmessage?.({
      data: JSON.stringify({ type: "error", code: "brand_new", message: "m", action_id: null }),
    });
    expect(conn.status).toBe("connecting");
    sockets.current.serverClose();
    expect(conn.status).toBe("waiting");
  });

  it("stop() closes and never reconnects", () => {
    const { sockets, clock, conn } = setup();
    conn.start();
    sockets.current.serverOpen();
    conn.stop();
    expect(sockets.current.closed).toBe(true);
    clock.advance(60_000);
    expect(sockets.all.length).toBe(1);
    expect(conn.status).toBe("stopped");
  });
});

describe("backoff", () => {
  it("doubles from 500 ms up to the cap, with equal jitter", () => {
    expect([0, 1, 2, 3, 4, 5, 6].map((n) => backoffDelay(n, 0))).toEqual([250, 500, 1000, 2000, 4000, 7500, 7500]);
    expect([0, 1, 2, 3, 4, 5, 6].map((n) => backoffDelay(n, 0.999999))).toEqual([
      500, 1000, 2000, 4000, 8000, 15000, 15000,
    ]);
  });

  it("schedules reconnects on that schedule and resets after a welcome", () => {
    const { sockets, clock, conn, events } = setup({ random: () => 0 });
    conn.start();
    const delays: number[] = [];
    for (let i = 0; i < 4; i++) {
      sockets.current.serverClose();
      const last = events[events.length - 1];
      const retryInMs = last?.type === "status" && last.status === "waiting" ? last.retryInMs : undefined;
      if (retryInMs !== undefined) delays.push(retryInMs);
      expect(clock.pending()).toEqual([retryInMs ?? -1]);
      clock.advance(clock.pending()[0] ?? 0);
    }
    expect(delays).toEqual([250, 500, 1000, 2000]);
    sockets.current.serverOpen();
    sockets.current.serverSend(welcome(3));
    sockets.current.serverClose();
    expect(clock.pending()).toEqual([250]);
  });

  it("does not reconnect before the delay", () => {
    const { sockets, clock, conn } = setup({ random: () => 0 });
    conn.start();
    sockets.current.serverClose();
    clock.advance(249);
    expect(sockets.all.length).toBe(1);
    clock.advance(1);
    expect(sockets.all.length).toBe(2);
  });

  it("works with vitest fake timers and the real clock", () => {
    vi.useFakeTimers();
    try {
      const sockets = new FakeSockets();
      const conn = new Connection({
        url: "ws://x",
        token: "t",
        socketFactory: sockets.factory,
        clock: realClock,
        random: () => 0,
      });
      conn.start();
      sockets.current.serverClose();
      vi.advanceTimersByTime(249);
      expect(sockets.all.length).toBe(1);
      vi.advanceTimersByTime(1);
      expect(sockets.all.length).toBe(2);
      conn.stop();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("seq and actions", () => {
  function ready() {
    const s = setup();
    s.conn.start();
    s.sockets.current.serverOpen();
    s.sockets.current.serverSend(welcome(10));
    return s;
  }

  it("tracks seq through welcome and updates", () => {
    const { sockets, conn } = ready();
    expect(conn.seq).toBe(10);
    sockets.current.serverSend({ type: "update", seq: 11, changes: {}, events: [] });
    expect(conn.seq).toBe(11);
  });

  it("sends actions based on the current seq with unique ids", () => {
    const { sockets, conn } = ready();
    const a = conn.sendAction({ type: "play_card" });
    const b = conn.sendAction({ type: "pass" });
    expect(a).not.toBe(b);
    expect(sockets.current.sent.slice(1)).toEqual([
      { type: "action", based_on: 10, action_id: a, action: { type: "play_card" } },
      { type: "action", based_on: 10, action_id: b, action: { type: "pass" } },
    ]);
  });

  it("sends nothing before the welcome", () => {
    const { sockets, conn } = setup();
    conn.start();
    sockets.current.serverOpen();
    expect(conn.sendAction({ type: "pass" })).toBeNull();
    expect(sockets.current.sent.length).toBe(1);
  });

  it("an ack settles the action once; a repeated ack is not reported twice", () => {
    const { sockets, conn, events } = ready();
    const id = conn.sendAction({ type: "play_card" })!;
    expect(conn.inFlight.has(id)).toBe(true);
    sockets.current.serverSend({ type: "ack", action_id: id, seq: 11 });
    sockets.current.serverSend({ type: "ack", action_id: id, seq: 11 });
    expect(conn.inFlight.size).toBe(0);
    expect(conn.acked.has(id)).toBe(true);
    expect(events.filter((e) => e.type === "acked").length).toBe(1);
  });

  it("an error with an action id refuses that action", () => {
    const { sockets, conn, events } = ready();
    const id = conn.sendAction({ type: "pass" })!;
    sockets.current.serverSend({ type: "error", code: "not_your_turn", message: "it is not your turn", action_id: id });
    expect(conn.inFlight.size).toBe(0);
    expect(events.find((e) => e.type === "refused")).toMatchObject({ code: "not_your_turn", sent: { action_id: id } });
    expect(conn.status).toBe("ready");
  });

  it("a rate_limited error without an action id gives up the actions in flight", () => {
    const { sockets, conn, events } = ready();
    conn.sendAction({ type: "pass" });
    sockets.current.serverSend({ type: "error", code: "rate_limited", message: "slow down", action_id: null });
    expect(conn.inFlight.size).toBe(0);
    expect(events.find((e) => e.type === "refused")).toMatchObject({ code: "rate_limited" });
  });

  it("stale_action then the fresh welcome: seq moves on and nothing is resent", () => {
    const { sockets, conn, events } = ready();
    const id = conn.sendAction({ type: "pass" })!;
    sockets.current.serverSend({ type: "error", code: "stale_action", message: "stale", action_id: id });
    sockets.current.serverSend(welcome(12));
    expect(conn.seq).toBe(12);
    expect(conn.inFlight.size).toBe(0);
    expect(events.find((e) => e.type === "refused")).toMatchObject({ code: "stale_action" });
    expect(sockets.current.sent.filter((m) => m.type === "action").length).toBe(1);
    // the next action is based on the fresh seq
    conn.sendAction({ type: "play_card" });
    expect(sockets.current.last()).toMatchObject({ type: "action", based_on: 12 });
  });

  it("after a drop, an unanswered action is resent with the same id if the game did not move", () => {
    const { sockets, clock, conn } = ready();
    const id = conn.sendAction({ type: "play_card" })!;
    sockets.current.serverClose();
    clock.advance(DEFAULT_BACKOFF.maxMs);
    sockets.current.serverOpen();
    sockets.current.serverSend(welcome(10));
    expect(sockets.current.last()).toEqual({
      type: "action",
      based_on: 10,
      action_id: id,
      action: { type: "play_card" },
    });
    expect(conn.inFlight.has(id)).toBe(true);
  });

  it("after a drop, an unanswered action is dropped if the game moved on", () => {
    const { sockets, clock, conn, events } = ready();
    conn.sendAction({ type: "play_card" });
    sockets.current.serverClose();
    clock.advance(DEFAULT_BACKOFF.maxMs);
    sockets.current.serverOpen();
    sockets.current.serverSend(welcome(11));
    expect(sockets.current.sent.filter((m) => m.type === "action").length).toBe(0);
    expect(conn.inFlight.size).toBe(0);
    expect(events.some((e) => e.type === "refused")).toBe(true);
  });

  it("rematch and claim_win are sent only when welcomed", () => {
    const { sockets, conn } = ready();
    expect(conn.rematch()).toBe(true);
    expect(conn.claimWin()).toBe(true);
    expect(sockets.current.sent.slice(1)).toEqual([{ type: "rematch" }, { type: "claim_win" }]);
  });
});

describe("keep-alive", () => {
  it("pings after a quiet interval and reconnects when no answer comes", () => {
    const { sockets, clock, conn } = setup();
    conn.start();
    sockets.current.serverOpen();
    sockets.current.serverSend(welcome(1));
    clock.advance(25_000);
    expect(sockets.current.last()).toEqual({ type: "ping" });
    sockets.current.serverSend({ type: "pong" });
    clock.advance(10_000);
    expect(sockets.all.length).toBe(1);
    clock.advance(15_000); // second ping
    expect(sockets.current.last()).toEqual({ type: "ping" });
    clock.advance(10_000); // no pong
    expect(sockets.all[0]!.closed).toBe(true);
    expect(conn.status).toBe("waiting");
  });
});

describe("token storage and urls", () => {
  it("keeps one token per room code (codes are case-sensitive)", () => {
    const store = new TokenStore(new MemoryStorage());
    expect(store.getToken("AAA")).toBeNull();
    store.setToken("AAA", "t1");
    store.setToken("aaa", "t2");
    expect(store.getToken("AAA")).toBe("t1");
    expect(store.getToken("aaa")).toBe("t2");
    store.clearToken("AAA");
    expect(store.getToken("AAA")).toBeNull();
    store.setInvite("BBB", "/r/BBB/join#x");
    expect(store.getInvite("BBB")).toBe("/r/BBB/join#x");
  });

  it("builds ws and wss urls", () => {
    expect(wsUrlFor("ABC", { protocol: "http:", host: "h:1" })).toBe("ws://h:1/ws/ABC");
    expect(wsUrlFor("ABC", { protocol: "https:", host: "h" })).toBe("wss://h/ws/ABC");
  });
});

afterEach(() => {
  vi.useRealTimers();
});
