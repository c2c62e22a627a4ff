// What the end-to-end tests of the account's pages check on every screen they reach: axe-core in
// every language at the desktop and phone sizes (serious and critical findings fail), and nothing
// wider than the screen. Each test keeps its own findings and asserts them at its end.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { setLang } from "./decide.mjs";

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 375, height: 812 };
export const LANGS = ["en", "zh-Hant", "ja"];

/** A test's screen checks: `axe(page, screen, ready)` runs them on `page` (`ready`: what shows once
 *  the screen's texts in a language have arrived, since they load on demand) and puts the page's
 *  viewport and language back after; their findings gather in `AXE` and `OVERFLOW`. */
export function screenChecks(log) {
  const AXE = [];
  const OVERFLOW = [];
  async function axe(page, screen, ready) {
    const back = page.viewportSize();
    for (const size of [DESKTOP, PHONE]) {
      await page.setViewportSize(size);
      for (const l of LANGS) {
        await setLang(page, l);
        await page.waitForSelector(ready);
        await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
        if (!(await page.evaluate(() => !!window.axe))) await page.evaluate(AXE_SOURCE);
        const v = await page.evaluate(async () =>
          (await window.axe.run(document, { resultTypes: ["violations"] })).violations.map((x) => ({
            id: x.id,
            impact: x.impact,
            n: x.nodes.length,
            targets: x.nodes.slice(0, 3).map((n) => n.target.join(" ")),
          })),
        );
        const bad = v.filter((x) => x.impact === "serious" || x.impact === "critical");
        AXE.push({ screen, lang: l, size: `${size.width}×${size.height}`, bad });
        if (bad.length) log(`axe ${screen} ${l} ${size.width}: ${bad.map((b) => `${b.id} [${b.impact}] ×${b.n}: ${b.targets.join(" | ")}`).join("; ")}`);
        const over = await page.evaluate(() => {
          const w = Math.min(window.innerWidth, document.documentElement.clientWidth);
          const sw = document.documentElement.scrollWidth;
          return sw <= w + 1 ? null : `${sw} px wide in a ${w} px viewport`;
        });
        if (over) OVERFLOW.push(`${screen} ${l} ${size.width}px: ${over}`);
      }
    }
    await setLang(page, "en");
    await page.setViewportSize(back);
  }
  return { axe, AXE, OVERFLOW };
}
