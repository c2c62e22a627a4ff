// @vitest-environment happy-dom
// Card movements: a card that leaves a play area leaves its place empty (no name: it must not show a
// card after the view stopped showing it) until a card is played there; the motion setting.
import { render } from "preact";
import { act } from "preact/test-utils";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Card } from "../src/net/protocol";
import { setPref } from "../src/state/prefs";
import { GameStore } from "../src/state/store";
import { useCountTo } from "../src/ui/motion";
import { Table } from "../src/ui/Table";
import { mountPoint } from "./dom";
import { makeView, welcome } from "./fakes";

const root = mountPoint();
beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe("card movements", () => {
  it("a discarded card leaves a nameless place that keeps its neighbours still; the next card played takes it", () => {
    const area = (...cards: [string, boolean][]) => {
      const v = makeView();
      v.imperial.play_area = cards.map(([card, ready]) => ({ card: card as Card, ready, value: 2 }));
      return v;
    };
    const store = new GameStore();
    store.apply(welcome(3, area(["Darth Vader", false], ["Recon 2", true])));
    act(() => render(<Table store={store} />, root()));
    const row = () => [...root().querySelectorAll(".playarea.imperial .cards-row > li")];
    expect(row().map((li) => li.className)).toEqual(["", ""]);
    act(() => store.apply(welcome(4, area(["Recon 2", true]))));
    const [hole, recon] = row();
    expect(hole!.className).toBe("card-hole");
    expect(hole!.textContent).toBe("");
    expect(hole!.getAttribute("aria-hidden")).toBe("true");
    // as wide as the card was: Darth Vader lay exhausted (sideways)
    expect(hole!.querySelector(".card-slot")!.getAttribute("data-exhausted")).toBe("true");
    expect(recon!.textContent).toContain("Recon 2");
    expect(root().textContent).not.toContain("Darth Vader");
    act(() => store.apply(welcome(5, area(["Recon 2", true], ["Military 4", true]))));
    expect(row().map((li) => li.textContent?.slice(0, 12))).toEqual([
      expect.stringContaining("Military 4"),
      expect.stringContaining("Recon 2"),
    ]);
  });
});

describe("the motion setting", () => {
  it("the page's data-motion follows the person's setting; a damaged saved value is full", async () => {
    const { MemoryStorage } = await import("../src/net/env");
    const { loadPrefs, setPref } = await import("../src/state/prefs");
    const { startMotionPref } = await import("../src/ui/motion");
    const storage = new MemoryStorage();
    storage.setItem("evr.prefs", JSON.stringify({ motion: "sideways" }));
    loadPrefs(storage);
    const page = document.createElement("div");
    const stop = startMotionPref(page);
    expect(page.dataset.motion).toBe("full");
    setPref("motion", "off");
    expect(page.dataset.motion).toBe("off");
    setPref("motion", "fast");
    expect(page.dataset.motion).toBe("fast");
    stop();
    setPref("motion", "full");
    expect(page.dataset.motion).toBe("fast");
  });
});

describe("a total counting to its new value", () => {
  function Shown({ v }: { v: number }) {
    return <span>{useCountTo(v)}</span>;
  }
  const shown = () => Number(root().textContent);

  it("counts up frame by frame, never outside the old and the new value, and ends on the new one", () => {
    vi.useFakeTimers({
      toFake: ["setTimeout", "clearTimeout", "requestAnimationFrame", "cancelAnimationFrame", "performance"],
    });
    setPref("motion", "full");
    act(() => render(<Shown v={8} />, root()));
    expect(shown()).toBe(8);
    act(() => render(<Shown v={15} />, root()));
    const seen = [shown()];
    for (let i = 0; i < 40; i++) {
      act(() => {
        vi.advanceTimersByTime(16);
      });
      seen.push(shown());
    }
    expect(seen[0]).toBe(8);
    expect(seen.some((n) => n > 8 && n < 15)).toBe(true);
    for (const [i, n] of seen.entries()) if (i > 0) expect(n).toBeGreaterThanOrEqual(seen[i - 1]!);
    expect(seen.at(-1)).toBe(15);
  });

  it("shows a new value at once with motion off", () => {
    setPref("motion", "off");
    act(() => render(<Shown v={8} />, root()));
    act(() => render(<Shown v={15} />, root()));
    expect(shown()).toBe(15);
    setPref("motion", "full");
  });
});
