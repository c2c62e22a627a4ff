// A mount point for component tests: a fresh <div> in the document for each test (English by
// default), unmounted and removed after it.
import { render } from "preact";
import { afterEach, beforeEach } from "vitest";
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
