// @vitest-environment happy-dom
// Card movements: a card that leaves a play area stays a moment as a faceless ghost (no name: it
// must not show a card after the view stopped showing it), then goes.
import { render } from "preact";
import { act } from "preact/test-utils";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
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
  it("a discarded card leaves a nameless ghost for 200 ms", () => {
    const before = makeView();
    before.imperial.play_area = [
      { card: "Darth Vader", ready: true, value: 6 },
      { card: "Recon 2", ready: true, value: 2 },
    ];
    const after = makeView();
    after.imperial.play_area = [{ card: "Recon 2", ready: true, value: 2 }];
    const store = new GameStore();
    store.apply(welcome(3, before));
    act(() => render(<Table store={store} />, root()));
    expect(root().querySelectorAll(".card-ghost").length).toBe(0);
    act(() => store.apply(welcome(4, after)));
    act(() => render(<Table store={store} />, root()));
    const ghosts = [...root().querySelectorAll(".card-ghost")];
    expect(ghosts.length).toBe(1);
    expect(ghosts[0]!.textContent).toBe("");
    expect(ghosts[0]!.getAttribute("aria-hidden")).toBe("true");
    expect(root().textContent).not.toContain("Darth Vader");
    act(() => {
      vi.advanceTimersByTime(250);
    });
    expect(root().querySelectorAll(".card-ghost").length).toBe(0);
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
