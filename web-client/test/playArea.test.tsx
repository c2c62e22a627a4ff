// @vitest-environment happy-dom
// A play area's row of cards is sized (fitRow.ts's --s) for the event's capacity from its first card:
// the row that the first card brings must get its factor then, not at the row's next change (it
// showed its cards at factor 1 until a card was exhausted, when every card of it grew: layout shift).
// The action bar's line keeps what does not change at every turn first.
import { render } from "preact";
import { act } from "preact/test-utils";
import { describe, expect, it } from "vitest";
import { GameStore } from "../src/state/store";
import { Table } from "../src/ui/Table";
import { mountPoint } from "./dom";
import { makeView, welcome } from "./fakes";

const root = mountPoint();

describe("a play area's row", () => {
  it("has its cards' size with its first card", () => {
    const store = new GameStore();
    const before = makeView();
    store.apply(welcome(3, before));
    act(() => render(<Table store={store} />, root()));
    expect(root().querySelector(".playarea.rebel .cards-row")).toBeNull();
    const after = makeView();
    after.rebel.play_area = [{ card: "Military 3", ready: true, value: 3 }];
    act(() => store.apply(welcome(4, after)));
    act(() => render(<Table store={store} />, root()));
    const row = root().querySelector<HTMLElement>(".playarea.rebel .cards-row");
    expect(row).not.toBeNull();
    // happy-dom lays nothing out (every width 0): the factor is then the largest, written all the same
    expect(row!.style.getPropertyValue("--s")).toBe("1.3");
  });
});

describe("the action bar's line", () => {
  it("says the space left before whose turn it is, which changes at every turn", () => {
    const store = new GameStore();
    store.apply(welcome(3, makeView({ phase: "struggle", turn: "rebel" })));
    act(() => render(<Table store={store} />, root()));
    expect(root().querySelector(".actionbar .turnline")!.textContent).toBe("space left: 4 · Your turn");
  });
});
