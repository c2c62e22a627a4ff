// Browser benchmark (issue "a table worth sitting at"): how long the real client takes from a move
// arriving on its WebSocket to the frame that shows it, and how much the page shifts under the player
// during whole games. Run by scripts/bench-browser.sh (figures in BENCHMARKS.md); not a test.
//
// Debian's chromium shows web-client/dist (served as the server serves it) at 1366×768 with the
// table's animations off; its WebSocket is the benchmark's (statecheck.mjs, fakeSocket), which plays
// whole random games of the real engine (`evr views`, the Rebel seat's messages) into it, one update
// every PACE_MS like moves at a brisk human pace. For each update:
//   - latency: from the moment the message is handed to the page's socket to the paint of the frame
//     that shows it, as the browser reports that paint: a one-character marker element with the
//     Element Timing attribute is added in the same task as the message, so the frame that paints
//     it is the first one after the client has handled the message (its `renderTime`);
//   - layout shift: the browser's own `layout-shift` entries (none after the player's input: there
//     is none here), per game as cumulative layout shift (CLS) counts them (the largest session
//     window: shifts under 1 s apart, at most 5 s) and all of them summed.
// Prints one JSON line per game and a summary line: p50, p95, max latency (ms) and the largest CLS.
//
//   node bench-frames.mjs [--games N] [--first-seed S] [--pace-ms MS]
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { serveDist } from "./serve-dist.mjs";
import { gameMessages, pickStates, room } from "./states.mjs";
import { fakeSocket } from "./statecheck.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, "../..");
const arg = (name, dflt) => {
  const i = process.argv.indexOf(name);
  return i < 0 ? dflt : Number(process.argv[i + 1]);
};
const GAMES = arg("--games", 5);
const FIRST_SEED = arg("--first-seed", 101);
const PACE_MS = arg("--pace-ms", 120);
const CODE = "BENCH234";

/** In page: plays `messages` into the client, one every `pace` ms; returns each update's latency to
 *  the painted frame and the game's cumulative layout shift. */
async function playGame({ messages, pace }) {
  // CLS as browsers report it (web-vitals): the largest session window of shifts (shifts less than 1 s
  // apart, the window at most 5 s long); and every shift of the game summed
  let sum = 0;
  let cls = 0;
  let win = { start: -Infinity, last: -Infinity, value: 0 };
  const shifts = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if (e.hadRecentInput) continue;
      sum += e.value;
      if (e.startTime - win.last > 1000 || e.startTime - win.start > 5000) win = { start: e.startTime, last: e.startTime, value: 0 };
      win.last = e.startTime;
      win.value += e.value;
      cls = Math.max(cls, win.value);
    }
  });
  shifts.observe({ type: "layout-shift" });
  const painted = new Map();
  const paints = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (e.identifier.startsWith("m")) painted.set(e.identifier, e.renderTime);
  });
  paints.observe({ type: "element" });
  const sent = [];
  const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));
  for (let i = 0; i < messages.length; i++) {
    const t0 = performance.now();
    window.__states.socket.onmessage({ data: messages[i] });
    // the marker: painted in the first frame after the client handled the message
    const marker = document.createElement("span");
    marker.textContent = "·";
    marker.setAttribute("elementtiming", `m${i}`);
    marker.style.cssText = "position:fixed;right:0;bottom:0;font-size:8px;color:#0f1420;pointer-events:none";
    document.body.append(marker);
    sent.push({ id: `m${i}`, t0, marker, first: i === 0 });
    await sleep(pace);
  }
  await sleep(500);
  shifts.disconnect();
  paints.disconnect();
  for (const s of sent) s.marker.remove();
  return { latencies: sent.filter((s) => !s.first && painted.has(s.id)).map((s) => painted.get(s.id) - s.t0), missing: sent.filter((s) => !painted.has(s.id)).length, cls, sum };
}

const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};

const games = pickStates({ evr: process.env.EVR_CLI_BIN ?? join(ROOT, "target/release/evr"), games: GAMES, firstSeed: FIRST_SEED }).filter((g) => g.viewer === "rebel");
const server = await serveDist(resolve(process.env.EVR_LAYOUT_DIST ?? join(ROOT, "web-client/dist")));
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium" });
const all = [];
let worstCls = 0;
let worstSum = 0;
try {
  for (const game of games) {
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
    const r = await page.evaluate(playGame, { messages: gameMessages(game, room(CODE, { side: "random", mode: "full", spectators: "anyone_with_link" }, ["Maximiliana", "Bartholomew"])), pace: PACE_MS });
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
