// The table page the browser benchmarks drive (bench-frames.mjs, bench-paint.mjs): the built client
// at 1366×768 with animations off, its WebSocket the benchmarks' (statecheck.mjs, fakeSocket), and
// the messages of one engine game for it to play. EVR_BENCH_CSS: a style sheet added to the page, to
// measure what a style costs (e.g. `body::before{display:none}`: the table without its sky's layer).
import { gameMessages, room } from "./states.mjs";
import { fakeSocket } from "./statecheck.mjs";

const CODE = "BENCH234";

/** The style of the one-character marker whose paint the benchmarks time (Element Timing): in the
 *  top-left corner, over everything. In the bottom-right corner, where it was until stop 39, Chromium
 *  did not report it for a frame in which it was the only text painted or the only text beside a
 *  change of the sticky action bar (an update that changes only the closed log, e.g. the opponent
 *  looking at their deck): it was reported with the next update's frame, ~140 ms late, seven times in
 *  seeds 101–103. In this corner every marker is reported with the frame that paints it. */
export const MARKER_STYLE = "position:fixed;left:0;top:0;z-index:2147483647;font-size:8px;color:#0f1420;pointer-events:none";

/** A new page of `browser` showing the room served by `server`, ready for `game`'s messages. */
export async function benchTablePage(browser, server, game) {
  const ctx = await browser.newContext({ viewport: { width: 1366, height: 768 } });
  await ctx.addInitScript(fakeSocket);
  await ctx.addInitScript((code) => {
    localStorage.setItem(`evr.token.${code}`, "bench-token");
    localStorage.setItem("evr.lang", "en");
    localStorage.setItem("evr.prefs", JSON.stringify({ motion: "off", sound: false }));
  }, CODE);
  const page = await ctx.newPage();
  await page.goto(`http://127.0.0.1:${server.address().port}/r/${CODE}`);
  await page.waitForFunction(() => window.__states?.hello === true);
  if (process.env.EVR_BENCH_CSS) await page.addStyleTag({ content: process.env.EVR_BENCH_CSS });
  const messages = gameMessages(game, room(CODE, { side: "random", mode: "full", spectators: "anyone_with_link" }, ["Maximiliana", "Bartholomew"]));
  return { ctx, page, messages };
}
