// @vitest-environment happy-dom
// Cards travel where they go (travel.ts): a card played arrives from its side's deck, a discarded card
// flies to the discard pile as a faceless card (no name: the view no longer shows it), a character to
// the reserve; nothing moves with motion off.
import { render } from "preact";
import { act } from "preact/test-utils";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { PlayerView, View } from "../src/net/protocol";
import { setPref } from "../src/state/prefs";
import { GameStore } from "../src/state/store";
import { Table } from "../src/ui/Table";
import { cameFrom, wentTo } from "../src/ui/travel";
import { mountPoint } from "./dom";
import { emptyPlayer, makeView, welcome } from "./fakes";

const root = mountPoint();
/** Each animation started: the element, its first keyframe and its options; finishing it ends it. */
let started: { el: Element; from: Keyframe; finish: () => void }[];

beforeEach(() => {
  started = [];
  // happy-dom has no Web Animations: a recorder stands in for Element.animate, and a frame runs at once
  vi.stubGlobal("requestAnimationFrame", (f: FrameRequestCallback) => {
    f(0);
    return 1;
  });
  Element.prototype.animate = function (frames: Keyframe[]) {
    const a = { onfinish: null as null | (() => void), oncancel: null as null | (() => void) };
    started.push({ el: this, from: frames[0]!, finish: () => a.onfinish?.() });
    return a as unknown as Animation;
  };
  setPref("motion", "full");
});
afterEach(() => {
  vi.unstubAllGlobals();
  delete (Element.prototype as { animate?: unknown }).animate;
  setPref("motion", "full");
  for (const f of document.querySelectorAll(".card-flyer")) f.remove();
});

function table(before: View, after: View) {
  const store = new GameStore();
  store.apply(welcome(3, before));
  act(() => render(<Table store={store} />, root()));
  act(() => store.apply(welcome(4, after)));
  act(() => render(<Table store={store} />, root()));
}

describe("cards travel", () => {
  it("a played card arrives from its side's deck", () => {
    const before = makeView();
    const after = makeView();
    after.rebel.play_area = [{ card: "Military 3", ready: true, value: 3 }];
    after.rebel.deck_size = 19;
    table(before, after);
    expect(started.length).toBe(1);
    expect(started[0]!.el.closest("[data-card]")?.getAttribute("data-card")).toBe("Military 3");
    expect(String(started[0]!.from.transform)).toMatch(/^translate\(.*\) scale\(/);
  });

  it("a discarded card flies to the discard pile as a faceless card, which then goes", () => {
    const before = makeView();
    before.imperial.play_area = [
      { card: "Military 4", ready: false, value: 4 },
      { card: "Recon 2", ready: true, value: 2 },
    ];
    const after = makeView();
    after.imperial.play_area = [{ card: "Recon 2", ready: true, value: 2 }];
    after.imperial.discard_pile = ["Military 4"];
    table(before, after);
    const flyers = [...document.querySelectorAll(".card-flyer")];
    expect(flyers.length).toBe(1);
    expect(flyers[0]!.classList.contains("imperial")).toBe(true);
    expect(flyers[0]!.textContent).toBe("");
    expect(flyers[0]!.getAttribute("aria-hidden")).toBe("true");
    expect(started.map((s) => s.el)).toContain(flyers[0]);
    for (const s of started) s.finish();
    expect(document.querySelectorAll(".card-flyer").length).toBe(0);
  });

  it("nothing moves with motion off", () => {
    setPref("motion", "off");
    const before = makeView();
    before.rebel.play_area = [{ card: "Military 3", ready: true, value: 3 }];
    const after = makeView();
    after.rebel.play_area = [{ card: "Military 4", ready: true, value: 4 }];
    after.rebel.discard_pile = ["Military 3"];
    table(before, after);
    expect(started.length).toBe(0);
    expect(document.querySelectorAll(".card-flyer").length).toBe(0);
  });

  it("where a card came from and went to", () => {
    const before: PlayerView = { ...emptyPlayer("rebel"), discard_pile: ["Military 2"], reserve_known: ["Yoda"] };
    expect(cameFrom("Military 2", before)).toBe("discard");
    expect(cameFrom("Yoda", before)).toBe("reserve");
    expect(cameFrom("Military 3", before)).toBe("deck");
    const after: PlayerView = { ...before, discard_pile: ["Military 2", "Recon 4"], reserve_size: 5 };
    expect(wentTo("Recon 4", before, after)).toBe("discard");
    expect(wentTo("Han Solo", before, after)).toBe("reserve");
    expect(wentTo("Recon 5", before, { ...before })).toBe("deck");
  });
});
