import { describe, expect, it } from "vitest";
import { Connection } from "../src/net/connection";
import { MemoryStorage } from "../src/net/env";
import {
  MAX_VERSION_RELOADS,
  planVersionReload,
  reloadOnVersionMismatch,
  VERSION_RELOAD_RESET_MS,
} from "../src/net/versionReload";
import { FakeClock, FakeSockets, welcome } from "./fakes";

/** A page: its connection, refused or welcomed by the server, and how often it reloaded. The
 *  storage is the tab's, kept across the page's reloads. */
function page(storage: MemoryStorage | null, clock: FakeClock) {
  const sockets = new FakeSockets();
  const conn = new Connection({
    url: "ws://test/ws/ABCDEFGHJK",
    token: "tok",
    socketFactory: sockets.factory,
    clock,
    random: () => 0.5,
    idPrefix: "p",
  });
  const reloads = { count: 0 };
  const stop = reloadOnVersionMismatch(conn, { storage, clock, random: () => 0, reload: () => reloads.count++ });
  conn.start();
  sockets.current.serverOpen();
  const refuse = (code: "version_mismatch" | "bad_token") =>
    sockets.current.serverSend({ type: "error", code, message: "m", action_id: null });
  return { conn, sockets, reloads, stop, refuse };
}

describe("a server of another version", () => {
  it("reloads the page after version_mismatch, once the short delay is over", () => {
    const clock = new FakeClock();
    const p = page(new MemoryStorage(), clock);
    p.refuse("version_mismatch");
    expect(p.conn.status).toBe("failed");
    clock.advance(499);
    expect(p.reloads.count).toBe(0);
    clock.advance(1);
    expect(p.reloads.count).toBe(1);
    clock.advance(60_000);
    expect(p.reloads.count).toBe(1);
  });

  it("does not reload for other fatal errors", () => {
    const clock = new FakeClock();
    const p = page(new MemoryStorage(), clock);
    p.refuse("bad_token");
    clock.advance(60_000);
    expect(p.reloads.count).toBe(0);
  });

  it("stops after a few reloads in a row: no endless loop between releases", () => {
    const clock = new FakeClock();
    const tab = new MemoryStorage();
    const reloaded: number[] = [];
    // each page load is refused again (the reload reached a node of the other release)
    for (let load = 0; load < MAX_VERSION_RELOADS + 2; load++) {
      const p = page(tab, clock);
      p.refuse("version_mismatch");
      clock.advance(60_000);
      reloaded.push(p.reloads.count);
      p.stop();
    }
    // MAX_VERSION_RELOADS (3) reloads, then the page stays with its message
    expect(reloaded).toEqual([1, 1, 1, 0, 0]);
  });

  it("waits longer before each reload of a series, half of it random", () => {
    const tab = new MemoryStorage();
    expect([0, 1, 2].map((i) => planVersionReload(tab, 1000 * i, 0))).toEqual([500, 2500, 10_000]);
    expect(planVersionReload(tab, 3000, 0)).toBeNull();
    const other = new MemoryStorage();
    expect(planVersionReload(other, 0, 0.5)).toBe(750);
  });

  it("starts a new series long after the last reload (a later upgrade)", () => {
    const tab = new MemoryStorage();
    for (let i = 0; i < MAX_VERSION_RELOADS; i++) expect(planVersionReload(tab, i, 0)).not.toBeNull();
    expect(planVersionReload(tab, VERSION_RELOAD_RESET_MS - 1, 0)).toBeNull();
    // (the refused attempt above did not extend the series: it is measured from the last reload)
    expect(planVersionReload(tab, MAX_VERSION_RELOADS - 1 + VERSION_RELOAD_RESET_MS, 0)).toBe(500);
  });

  it("never reloads without a storage to remember it by", () => {
    const clock = new FakeClock();
    const p = page(null, clock);
    p.refuse("version_mismatch");
    clock.advance(60_000);
    expect(p.reloads.count).toBe(0);
    expect(planVersionReload(null, 0, 0)).toBeNull();
  });

  it("a page that left the room does not reload later", () => {
    const clock = new FakeClock();
    const p = page(new MemoryStorage(), clock);
    p.refuse("version_mismatch");
    p.stop();
    clock.advance(60_000);
    expect(p.reloads.count).toBe(0);
  });

  it("a welcomed page is left alone", () => {
    const clock = new FakeClock();
    const p = page(new MemoryStorage(), clock);
    p.sockets.current.serverSend(welcome(3));
    clock.advance(20_000);
    expect(p.conn.status).toBe("ready");
    expect(p.reloads.count).toBe(0);
  });
});
