// Two seats and a spectator play a whole game against a real server through net/ and state/,
// always choosing a random legal action. Needs Node's WebSocket (NODE_OPTIONS=--experimental-websocket).
import { describe, expect, it } from "vitest";
import { logLine, setLanguage } from "../src/i18n";
import { Connection } from "../src/net/connection";
import { realClock, type SocketLike } from "../src/net/env";
import { ApiClient } from "../src/net/http";
import { GameStore } from "../src/state/store";

const env = (globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env ?? {};
const base = env.EVR_API ?? "http://127.0.0.1:8080";

function seat(code: string, token: string | null) {
  const conn = new Connection({
    url: `${base.replace(/^http/, "ws")}/ws/${code}`,
    token,
    socketFactory: (u) => new WebSocket(u) as unknown as SocketLike,
    clock: realClock,
  });
  const store = new GameStore();
  store.attach(conn);
  conn.start();
  return { conn, store };
}

const until = (cond: () => boolean, ms = 10_000) =>
  new Promise<void>((resolve, reject) => {
    const t0 = Date.now();
    const tick = () => (cond() ? resolve() : Date.now() - t0 > ms ? reject(new Error("timeout")) : setTimeout(tick, 5));
    tick();
  });

describe("live server", () => {
  it("plays a whole game with random legal actions", async () => {
    const api = new ApiClient((i, init) => fetch(base + i, init));
    const room = await api.createRoom({ side: "rebel", mode: "full", spectators: "anyone_with_link" });
    const invite = (room.invite_url ?? "").split("#")[1]!;
    const joined = await api.joinRoom(room.code, { invite });
    const a = seat(room.code, room.token);
    const b = seat(room.code, joined.token);
    const w = seat(room.code, null);
    await until(() => [a, b, w].every((s) => s.store.status.value === "ready" && s.store.view.value !== null));
    expect(w.store.isSpectator.value).toBe(true);
    let steps = 0;
    let drops = 0;
    while (a.store.view.value!.phase !== "game_over" && steps < 2000) {
      await until(() => !a.store.busy.value && !b.store.busy.value && a.store.seq.value === b.store.seq.value);
      const mover = [a, b].find(
        (s) => s.store.view.value!.legal_actions.length > 0 && s.store.view.value!.phase !== "game_over",
      );
      if (!mover) {
        await new Promise((r) => setTimeout(r, 20));
        steps++;
        continue;
      }
      await new Promise((r) => setTimeout(r, 60)); // stay under --messages-per-second
      if (steps === 20 || steps === 45) {
        // drop a socket under a seat: it must resume with last_seq and catch up from `missed`
        const victim = steps === 20 ? a : b;
        (victim.conn as unknown as { socket: WebSocket }).socket.close();
        drops++;
      }
      const legal = mover.store.view.value!.legal_actions;
      const seqBefore = mover.store.seq.value!;
      expect(mover.store.act(legal[Math.floor(Math.random() * legal.length)]!)).toBe(true);
      await until(() => mover.store.seq.value! > seqBefore || mover.store.lastError.value !== null);
      expect(mover.store.lastError.value).toBeNull();
      steps++;
    }
    expect(a.store.view.value!.phase).toBe("game_over");
    await until(() => w.store.seq.value === a.store.seq.value);
    expect(w.store.view.value!.outcome).toEqual(a.store.view.value!.outcome);
    expect(a.store.log.value.length).toBeGreaterThan(10);
    // every viewer gets the same sequence of entries, drops and resumes included
    await until(() => b.store.seq.value === a.store.seq.value);
    expect(drops).toBe(2);
    expect(a.store.log.value.map((e) => e.type)).toEqual(b.store.log.value.map((e) => e.type));
    expect(w.store.log.value.map((e) => e.type)).toEqual(a.store.log.value.map((e) => e.type));
    for (const l of ["en", "zh-Hant", "ja"] as const) {
      setLanguage(l);
      for (const e of [...a.store.log.value, ...w.store.log.value]) {
        const line = logLine(e);
        expect(line.length).toBeGreaterThan(0);
        expect(line).not.toMatch(/undefined|null|NaN/);
      }
    }
    setLanguage("en");
    console.log(
      `game over after ${steps} actions, seq ${a.store.seq.value}, log ${a.store.log.value.length}:`,
      a.store.view.value!.outcome,
    );
    // rematch: both ask, a fresh welcome starts game 2 with the sides swapped and a fresh log
    expect(a.store.rematch()).toBe(true);
    await until(() => b.store.room.value!.rematch_requested.some(Boolean));
    expect(b.store.rematch()).toBe(true);
    await until(() =>
      [a, b, w].every((s) => s.store.room.value!.game_number === 2 && s.store.view.value!.phase === "character_choice"),
    );
    expect(a.store.me.value).toBe("imperial");
    expect(b.store.me.value).toBe("rebel");
    expect(a.store.log.value.some((e) => e.type === "game_over")).toBe(false);
    for (const s of [a, b, w]) s.conn.stop();
  });
});
