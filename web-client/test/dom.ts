// A mount point for component tests: a fresh <div> in the document for each test (English by
// default), unmounted and removed after it.
import { render } from "preact";
import { act } from "preact/test-utils";
import { afterEach, beforeEach, expect } from "vitest";
import { setLanguage } from "../src/i18n";

/** Registers the per-test set-up and returns a getter for the current test's root element. */
export function mountPoint(): () => HTMLElement {
  let root: HTMLElement | null = null;
  beforeEach(() => {
    root = document.createElement("div");
    document.body.appendChild(root);
    setLanguage("en");
  });
  afterEach(() => {
    if (!root) return;
    render(null, root);
    root.remove();
  });
  return () => {
    if (!root) throw new Error("mountPoint: used outside a test");
    return root;
  };
}

/** Waits until `done` holds, letting the page's renders, answers and parts loaded on demand arrive
 *  when they do (a busy machine takes longer), for 5 s at most: a test waits for what it checks,
 *  never for a fixed time. */
export async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 250 && !done(); i++) await act(async () => void (await new Promise((r) => setTimeout(r, 20))));
  expect(done()).toBe(true);
}
