// @vitest-environment happy-dom
// The Rules drawer (Reference.tsx): the summary of the rules is a file of its own per language, fetched
// when the drawer is first opened (i18n/rules.ts); the drawer shows it in the page's language once open.
import { render } from "preact";
import { act } from "preact/test-utils";
import { afterEach, beforeEach, expect, it } from "vitest";
import { setLanguage } from "../src/i18n";
import { Reference } from "../src/ui/Reference";

let root: HTMLElement;
beforeEach(() => {
  root = document.createElement("div");
  document.body.appendChild(root);
});
afterEach(() => {
  render(null, root);
  root.remove();
  setLanguage("en");
});

it("the rules' summary is rendered once the drawer opens, in the page's language", async () => {
  setLanguage("ja");
  act(() => render(<Reference />, root));
  const details = root.querySelector<HTMLDetailsElement>("details#reference")!;
  expect(root.querySelector(".ref-rules")).toBeNull();
  expect(details.textContent).toContain("ダース・ベイダー"); // the cards are there at once
  await act(async () => {
    details.open = true;
    details.dispatchEvent(new Event("toggle"));
  });
  const titles = [...root.querySelectorAll(".ref-rules h4")].map((h) => h.textContent);
  expect(titles).toEqual(["目的と準備", "1. 計画フェーズ", "2. 紛争フェーズ", "3. 支配フェーズ"]);
  await act(async () => {
    await setLanguage("zh-Hant");
  });
  expect(root.querySelector(".ref-rules h4")?.textContent).not.toBe("目的と準備");
});
