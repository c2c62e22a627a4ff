// @vitest-environment happy-dom
// Sounds at the table: one cue per batch of new events, the most telling one; none when switched
// off, for a replay or while the page is hidden.
import { render } from "preact";
import { act } from "preact/test-utils";
import { describe, expect, it } from "vitest";
import { MemoryStorage } from "../src/net/env";
import type { LogEntry } from "../src/net/protocol";
import { loadPrefs, setPref } from "../src/state/prefs";
import { GameStore } from "../src/state/store";
import { type Cue, cueFor, useTableSounds } from "../src/ui/tableSounds";
import { mountPoint } from "./dom";
import { makeView, welcome } from "./fakes";

const root = mountPoint();
const played: LogEntry = { type: "card_played", faction: "rebel", card: "Military 3" };
const passed: LogEntry = { type: "passed", faction: "imperial" };

function Probe({ store, heard }: { store: GameStore; heard: Cue[] }) {
  useTableSounds(store, (c) => heard.push(c));
  return null;
}

describe("sounds at the table", () => {
  it("a card played knocks; the reveal outsounds what came with it; a pass is silent", () => {
    expect(cueFor([played])).toBe("card");
    const revealed: LogEntry = {
      type: "strategies_revealed",
      strategies: ["support", "deception"],
      totals: [12, 9],
      eligible: [true, true],
    };
    expect(cueFor([passed, { type: "struggle_ended", reason: "both_passed" }, revealed])).toBe("reveal");
    expect(cueFor([passed])).toBeNull();
    expect(cueFor([])).toBeNull();
  });

  it("the page's new events sound their cue, unless switched off or a replay", () => {
    loadPrefs(new MemoryStorage());
    const store = new GameStore();
    store.apply(welcome(3, makeView()));
    const heard: Cue[] = [];
    act(() => render(<Probe store={store} heard={heard} />, root()));
    act(() => store.apply({ type: "update", seq: 4, changes: {}, events: [played] }));
    expect(heard).toEqual(["card"]);
    act(() => setPref("tableSounds", false));
    act(() => store.apply({ type: "update", seq: 5, changes: {}, events: [played] }));
    expect(heard).toEqual(["card"]);
    act(() => setPref("tableSounds", true));
    store.replaying.value = true;
    act(() => store.apply({ type: "update", seq: 6, changes: {}, events: [played] }));
    expect(heard).toEqual(["card"]);
  });
});
