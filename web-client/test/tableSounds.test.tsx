// @vitest-environment happy-dom
// Sounds at the table: one cue per batch of new events, the most telling one (the reveal, your turn,
// the opponent's move); off until switched on; none for a replay.
import { render } from "preact";
import { act } from "preact/test-utils";
import { describe, expect, it } from "vitest";
import { MemoryStorage } from "../src/net/env";
import type { LogEntry } from "../src/net/protocol";
import { loadPrefs, prefs, setPref } from "../src/state/prefs";
import { GameStore } from "../src/state/store";
import { type Cue, cueFor, useTableSounds } from "../src/ui/tableSounds";
import { mountPoint } from "./dom";
import { makeView, welcome } from "./fakes";

const root = mountPoint();
const theirs: LogEntry = { type: "card_played", faction: "imperial", card: "Military 3" };
const mine: LogEntry = { type: "card_played", faction: "rebel", card: "Military 2" };
const revealed: LogEntry = {
  type: "strategies_revealed",
  strategies: ["support", "deception"],
  totals: [12, 9],
  eligible: [true, true],
};

function Probe({ store, heard }: { store: GameStore; heard: Cue[] }) {
  useTableSounds(store, (c) => heard.push(c));
  return null;
}

describe("sounds at the table", () => {
  it("the reveal first, then your turn arriving, then the other side's move; your own move is silent", () => {
    expect(cueFor([theirs, revealed], "rebel", true)).toBe("reveal");
    expect(cueFor([theirs], "rebel", true)).toBe("turn");
    expect(cueFor([theirs], "rebel", false)).toBe("move");
    expect(cueFor([mine], "rebel", false)).toBeNull();
    expect(cueFor([{ type: "passed", faction: "imperial" }], "rebel", false)).toBe("move");
    // a spectator hears both sides' moves
    expect(cueFor([mine], null, false)).toBe("move");
    expect(cueFor([], "rebel", false)).toBeNull();
  });

  it("off until switched on; then the page's new events sound their cue, never a replay's", () => {
    loadPrefs(new MemoryStorage());
    expect(prefs.value.tableSounds).toBe(false);
    const store = new GameStore();
    store.apply(welcome(3, makeView({ turn: "imperial", legal_actions: [] })));
    const heard: Cue[] = [];
    act(() => render(<Probe store={store} heard={heard} />, root()));
    act(() => store.apply({ type: "update", seq: 4, changes: {}, events: [theirs] }));
    expect(heard).toEqual([]);
    act(() => setPref("tableSounds", true));
    act(() => store.apply({ type: "update", seq: 5, changes: {}, events: [theirs] }));
    expect(heard).toEqual(["move"]);
    // the opponent passes and it is this player's turn
    act(() =>
      store.apply({
        type: "update",
        seq: 6,
        changes: { turn: "rebel", legal_actions: [{ type: "play_card" }] },
        events: [{ type: "passed", faction: "imperial" }],
      }),
    );
    expect(heard).toEqual(["move", "turn"]);
    store.replaying.value = true;
    act(() => store.apply({ type: "update", seq: 7, changes: {}, events: [revealed] }));
    expect(heard).toEqual(["move", "turn"]);
  });
});
