// Browser benchmark (issue "a table worth sitting at"): how long the real client takes from a move
// arriving on its WebSocket to the frame that shows it, and how much the page shifts under the player
// during whole games. Run by scripts/bench-browser.sh (figures in BENCHMARKS.md); not a test.
//
// Debian's chromium shows web-client/dist (served as the server serves it) at 1366×768 with the
// table's animations off; its WebSocket is the benchmark's (statecheck.mjs, fakeSocket), which plays
// whole random games of the real engine (`evr views`, the Rebel seat's messages, or the Imperial's with `--seat imperial`) into it, one update
// every PACE_MS like moves at a brisk human pace. For each update:
//   - latency: from the moment the message is handed to the page's socket to the paint of the frame
//     that shows it, as the browser reports that paint: a one-character marker element with the
//     Element Timing attribute is added in the same task as the message, so the frame that paints
//     it is the first one after the client has handled the message (its `renderTime`);
//   - layout shift: the browser's own `layout-shift` entries, per game as cumulative layout shift
//     (CLS) counts them (the largest session window: shifts under 1 s apart, at most 5 s) and all of
//     them summed. An update that answers the viewer's own move comes after a key press, as it comes
//     after their click in a real game, so that the browser leaves out what it moves (hadRecentInput)
//     as it does for a player: the table changing because you played is not a shift under you.
// Prints one JSON line per game and a summary line: p50, p95, max latency (ms) and the largest CLS.
//
//   node bench-frames.mjs [--games N] [--first-seed S] [--pace-ms MS] [--seat rebel|imperial]
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { benchTablePage, MARKER_STYLE } from "./bench-page.mjs";
import { serveDist } from "./serve-dist.mjs";
import { pickStates } from "./states.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, "../..");
const arg = (name, dflt) => {
  const i = process.argv.indexOf(name);
  return i < 0 ? dflt : Number(process.argv[i + 1]);
};
const GAMES = arg("--games", 5);
const FIRST_SEED = arg("--first-seed", 101);
const PACE_MS = arg("--pace-ms", 120);
const SEAT = process.argv.includes("--seat") ? process.argv[process.argv.indexOf("--seat") + 1] : "rebel";
if (SEAT !== "rebel" && SEAT !== "imperial") throw new Error(`--seat rebel|imperial, not ${SEAT}`);

/** In page: starts watching the page's layout shifts and the markers' paints (window.__bench). */
function observe() {
  // CLS as browsers report it (web-vitals): the largest session window of shifts (shifts less than 1 s
  // apart, the window at most 5 s long); and every shift of the game summed. A shift within 0.5 s of
  // the player's own input (hadRecentInput) is the answer to it, and not counted, as browsers do.
  const b = { sum: 0, cls: 0, win: { start: -Infinity, last: -Infinity, value: 0 }, painted: new Map(), sent: [] };
  b.shifts = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if (e.hadRecentInput) continue;
      b.sum += e.value;
      if (e.startTime - b.win.last > 1000 || e.startTime - b.win.start > 5000) b.win = { start: e.startTime, last: e.startTime, value: 0 };
      b.win.last = e.startTime;
      b.win.value += e.value;
      b.cls = Math.max(b.cls, b.win.value);
    }
  });
  b.shifts.observe({ type: "layout-shift" });
  b.paints = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (e.identifier.startsWith("m")) b.painted.set(e.identifier, e.renderTime);
  });
  b.paints.observe({ type: "element" });
  window.__bench = b;
}

/** In page: hands message `i` to the client's socket, and adds the marker painted in the first frame
 *  after the client handled it. */
function deliver({ i, message, style }) {
  const t0 = performance.now();
  window.__states.socket.onmessage({ data: message });
  const marker = document.createElement("span");
  marker.textContent = "·";
  marker.setAttribute("elementtiming", `m${i}`);
  marker.style.cssText = style;
  document.body.append(marker);
  window.__bench.sent.push({ id: `m${i}`, t0, marker, first: i === 0 });
}

/** In page: each update's latency to its painted frame and the game's layout shift. */
async function results() {
  const b = window.__bench;
  await new Promise((ok) => setTimeout(ok, 500));
  b.shifts.disconnect();
  b.paints.disconnect();
  for (const s of b.sent) s.marker.remove();
  const painted = b.sent.filter((s) => !s.first && b.painted.has(s.id));
  return { latencies: painted.map((s) => b.painted.get(s.id) - s.t0), missing: b.sent.length - painted.length - 1, cls: b.cls, sum: b.sum };
}

/** Who acted in an update: its first event's actor (`by`, or the side it names; a strategy chosen by
 *  its owner); null for what the engine did by itself. */
function actor(update) {
  const e = update.events[0];
  if (!e) return null;
  if (e.by) return e.by;
  // Infiltration: the opponent of the strategy's owner chose it (a strategy drawn at random is nobody's move)
  if (e.type === "strategy_chosen")
    return e.chooser === "owner" ? e.target : e.chooser === "opponent" ? (e.target === "rebel" ? "imperial" : "rebel") : null;
  return e.faction ?? null;
}

/** How long after the player's input a shift is the answer to it (browsers' hadRecentInput), and the
 *  wait before anything else arrives: an opponent's move comes seconds after your own in a game. */
const INPUT_WINDOW_MS = 500;
const AFTER_INPUT_MS = INPUT_WINDOW_MS + 100;

/** Plays a game's messages into the page, one every `pace` ms. An update that answers the viewer's
 *  own move (its first event is theirs) comes right after a key press in the page, as it would after
 *  their click: what it moves is the answer to their input, as browsers count layout shift; the next
 *  update that is not theirs waits until that input is no longer recent. */
async function playGame(page, game, messages, pace) {
  await page.evaluate(observe);
  const sleep = (ms) => new Promise((ok) => setTimeout(ok, Math.max(0, ms)));
  let input = -Infinity;
  for (let i = 0; i < messages.length; i++) {
    const started = Date.now();
    if (i > 0 && actor(game.updates[i - 1]) === game.viewer) {
      await page.keyboard.press("Shift");
      input = Date.now();
    } else await sleep(input + AFTER_INPUT_MS - Date.now());
    await page.evaluate(deliver, { i, message: messages[i], style: MARKER_STYLE });
    await sleep(pace - (Date.now() - started));
  }
  return page.evaluate(results);
}

const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};

const games = pickStates({ evr: process.env.EVR_CLI_BIN ?? join(ROOT, "target/release/evr"), games: GAMES, firstSeed: FIRST_SEED }).filter((g) => g.viewer === SEAT);
const server = await serveDist(resolve(process.env.EVR_LAYOUT_DIST ?? join(ROOT, "web-client/dist")));
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium" });
const all = [];
let worstCls = 0;
let worstSum = 0;
try {
  for (const game of games) {
    const { ctx, page, messages } = await benchTablePage(browser, server, game);
    const r = await playGame(page, game, messages, PACE_MS);
    await ctx.close();
    all.push(...r.latencies);
    worstCls = Math.max(worstCls, r.cls);
    worstSum = Math.max(worstSum, r.sum);
    const f = (x) => Math.round(x * 10) / 10;
    console.log(JSON.stringify({ seed: game.seed, updates: r.latencies.length, unpainted: r.missing, p50_ms: f(quantile(r.latencies, 0.5)), p95_ms: f(quantile(r.latencies, 0.95)), cls: Math.round(r.cls * 10000) / 10000, shifts_summed: Math.round(r.sum * 10000) / 10000 }));
  }
  const f = (x) => Math.round(x * 10) / 10;
  console.log(
    JSON.stringify({ games: games.length, updates: all.length, pace_ms: PACE_MS, p50_ms: f(quantile(all, 0.5)), p95_ms: f(quantile(all, 0.95)), max_ms: f(Math.max(...all)), worst_game_cls: Math.round(worstCls * 10000) / 10000, worst_game_shifts_summed: Math.round(worstSum * 10000) / 10000 }),
  );
} finally {
  await browser.close();
  server.close();
}
