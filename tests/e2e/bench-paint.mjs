// Where a frame of the table spends its time (issue "a table worth sitting at"): the figures behind
// BENCHMARKS.md's account of bench-frames.mjs's latency. Not a test; run on a quiet machine.
//
//   node bench-paint.mjs floor    the same latency measurement (Element Timing of a marker added in
//                                 the task) on a page that changes one line of text per update:
//                                 the pipeline's floor on this machine
//   node bench-paint.mjs moves    the pixels of a move with no script: each update of the games of
//                                 seeds 101–103 (GAMES for more), as the real client drew it, applied to
//                                 the table page as its bare DOM writes (computed beforehand from the
//                                 page before and after), timed as bench-frames.mjs times the client:
//                                 the floor that a move's frame has on this machine, whatever the script
//   node bench-paint.mjs layers   the table after UPTO updates (default 60) of seed 101's game: each
//                                 composited layer, why it is one, and what replaying its drawing
//                                 costs (LayerTree.profileSnapshot), with its costliest commands
//   node bench-paint.mjs trace    one whole game (seed 101) under Chromium's trace: per update, the
//                                 medians of the handling task, its main frame, the tiles rastered
//                                 and the compositor's drawing (its quads), then the same for a
//                                 change of one line of the table's text
//
// Uses web-client/dist (EVR_LAYOUT_DIST for another build) and target/release/evr, as
// bench-frames.mjs does (scripts/bench-browser.sh builds them).
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { benchTablePage, MARKER_STYLE } from "./bench-page.mjs";
import { serveDist } from "./serve-dist.mjs";
import { pickStates } from "./states.mjs";

const ROOT = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const MODE = process.argv[2] ?? "floor";
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium" });
const server = MODE === "floor" ? null : await serveDist(resolve(process.env.EVR_LAYOUT_DIST ?? join(ROOT, "web-client/dist")));

/** The games of seeds `firstSeed`… as the Rebel sees them. */
const rebelGames = (games, firstSeed) =>
  pickStates({ evr: process.env.EVR_CLI_BIN ?? join(ROOT, "target/release/evr"), games, firstSeed }).filter((g) => g.viewer === "rebel");

/** A page of the table showing seed 101's game as the Rebel sees it, and its messages. */
async function tablePage() {
  return benchTablePage(browser, server, rebelGames(1, 101)[0]);
}

/** In page: hands each message to the client's socket, one every 120 ms. */
async function play(messages) {
  for (const m of messages) {
    window.__states.socket.onmessage({ data: m });
    console.timeStamp("update"); // marks the task in a trace
    await new Promise((ok) => setTimeout(ok, 120));
  }
}

/** In page: changes the action bar's line `n` times, one every 120 ms (after the game: a change that
 *  damages a few tiles, for comparison). */
async function oneLine(n) {
  await new Promise((ok) => setTimeout(ok, 600));
  const line = document.querySelector(".actionbar .bar-text") ?? document.body;
  for (let i = 0; i < n; i++) {
    line.textContent = `line ${i}`;
    console.timeStamp("line");
    await new Promise((ok) => setTimeout(ok, 120));
  }
}

/** In page: plays `messages` into the client and returns the page's body after each (and before the
 *  first), once its frame is drawn. */
async function bodies(messages) {
  const frame = () => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok)));
  await frame();
  const out = [document.body.innerHTML];
  for (const m of messages) {
    window.__states.socket.onmessage({ data: m });
    await frame();
    out.push(document.body.innerHTML);
  }
  return out;
}

/** In page, with the client silenced: for each pair of consecutive bodies, shows the first, computes
 *  the DOM writes that turn it into the second (a tree diff by position: attributes, text, and
 *  subtrees replaced where their element differs), then times only those writes as bench-frames.mjs
 *  times an update: from the writes to the paint of a marker added with them. Returns the latencies. */
async function bareWrites({ bodies, style }) {
  window.__states.socket.onmessage = () => {};
  const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));
  const painted = new Map();
  new PerformanceObserver((l) => {
    for (const e of l.getEntries()) painted.set(e.identifier, e.renderTime);
  }).observe({ type: "element" });
  const diff = (live, want, writes) => {
    if (live.nodeType === 1) {
      for (const a of [...want.attributes]) if (live.getAttribute(a.name) !== a.value) writes.push(() => live.setAttribute(a.name, a.value));
      for (const a of [...live.attributes]) if (!want.hasAttribute(a.name)) writes.push(() => live.removeAttribute(a.name));
    }
    const had = [...live.childNodes];
    const wants = [...want.childNodes];
    for (let i = 0; i < Math.max(had.length, wants.length); i++) {
      const [l, w] = [had[i], wants[i]];
      if (!w) writes.push(() => l.remove());
      else if (!l) writes.push(() => live.append(w.cloneNode(true)));
      else if (l.nodeName !== w.nodeName) writes.push(() => l.replaceWith(w.cloneNode(true)));
      else if (l.nodeType === 3) {
        if (l.nodeValue !== w.nodeValue) writes.push(() => (l.nodeValue = w.nodeValue));
      } else if (l.nodeType === 1) diff(l, w, writes);
    }
  };
  const latencies = [];
  for (let i = 1; i < bodies.length; i++) {
    document.body.innerHTML = bodies[i - 1];
    const want = document.createElement("body");
    want.innerHTML = bodies[i];
    const writes = [];
    diff(document.body, want, writes);
    await sleep(250); // the page before, drawn and settled
    const t0 = performance.now();
    for (const w of writes) w();
    const marker = document.createElement("span");
    marker.textContent = "·";
    marker.setAttribute("elementtiming", `m${i}`);
    marker.style.cssText = style;
    document.body.append(marker);
    await sleep(120);
    if (painted.has(`m${i}`)) latencies.push(painted.get(`m${i}`) - t0);
    marker.remove();
  }
  return latencies;
}

try {
  if (MODE === "floor") {
    const page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
    await page.setContent(`<body style="background:#0b0e17;color:#eef1f7"><p id="t">update</p></body>`);
    const ms = await page.evaluate(async (style) => {
      const painted = new Map();
      new PerformanceObserver((l) => {
        for (const e of l.getEntries()) painted.set(e.identifier, e.renderTime);
      }).observe({ type: "element" });
      const sent = [];
      for (let i = 0; i < 150; i++) {
        const t0 = performance.now();
        document.getElementById("t").textContent = `update ${i}`;
        const m = document.createElement("span");
        m.textContent = "·";
        m.setAttribute("elementtiming", `m${i}`);
        m.style.cssText = style;
        document.body.append(m);
        sent.push({ id: `m${i}`, t0 });
        await new Promise((ok) => setTimeout(ok, 120));
      }
      await new Promise((ok) => setTimeout(ok, 500));
      return sent.filter((s) => painted.has(s.id)).map((s) => painted.get(s.id) - s.t0);
    }, MARKER_STYLE);
    const s = [...ms].sort((a, b) => a - b);
    console.log(JSON.stringify({ mode: "floor", updates: s.length, p50_ms: Math.round(median(s) * 10) / 10, p95_ms: Math.round(s[Math.floor(s.length * 0.95)] * 10) / 10 }));
  } else if (MODE === "moves") {
    const quantile = (xs, q) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];
    const f = (x) => Math.round(x * 10) / 10;
    const all = [];
    for (const game of rebelGames(Number(process.env.GAMES ?? 3), 101)) {
      // the bodies the real client drew, on one page; their bare writes timed on another
      const drawn = await benchTablePage(browser, server, game);
      const states = await drawn.page.evaluate(bodies, drawn.messages);
      await drawn.ctx.close();
      const bare = await benchTablePage(browser, server, game);
      const ms = await bare.page.evaluate(bareWrites, { bodies: states, style: MARKER_STYLE });
      await bare.ctx.close();
      all.push(...ms);
      console.log(JSON.stringify({ mode: "moves", seed: game.seed, updates: states.length - 1, painted: ms.length, p50_ms: f(quantile(ms, 0.5)), p95_ms: f(quantile(ms, 0.95)) }));
    }
    console.log(JSON.stringify({ mode: "moves", updates: all.length, p50_ms: f(quantile(all, 0.5)), p95_ms: f(quantile(all, 0.95)) }));
  } else if (MODE === "layers") {
    const { ctx, page, messages } = await tablePage();
    await page.evaluate(play, messages.slice(0, Number(process.env.UPTO ?? 60)));
    const cdp = await ctx.newCDPSession(page);
    let layers = [];
    cdp.on("LayerTree.layerTreeDidChange", (e) => {
      if (e.layers) layers = e.layers;
    });
    await cdp.send("LayerTree.enable");
    // a change of nothing visible, so that the layer tree is reported
    await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok))));
    await page.evaluate(() => {
      document.body.style.outline = "1px solid transparent";
    });
    await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok))));
    for (const l of layers.filter((l) => l.drawsContent).sort((a, b) => b.width * b.height - a.width * a.height)) {
      let name = "";
      if (l.backendNodeId) {
        const d = await cdp.send("DOM.describeNode", { backendNodeId: l.backendNodeId }).catch(() => null);
        if (d) name = `${d.node.nodeName} ${(d.node.attributes ?? []).join(" ").slice(0, 60)}`;
      }
      const why = await cdp.send("LayerTree.compositingReasons", { layerId: l.layerId }).catch(() => ({ compositingReasonIds: [] }));
      const snap = await cdp.send("LayerTree.makeSnapshot", { layerId: l.layerId }).catch(() => null);
      if (!snap) continue;
      const { timings } = await cdp.send("LayerTree.profileSnapshot", { snapshotId: snap.snapshotId, minRepeatCount: 20 });
      const { commandLog } = await cdp.send("LayerTree.snapshotCommandLog", { snapshotId: snap.snapshotId });
      const cost = timings[0].map((_, i) => median(timings.map((t) => t[i]))); // seconds, per command
      const top = commandLog.map((c, i) => [cost[i] ?? 0, c.method]).sort((a, b) => b[0] - a[0]).slice(0, 3);
      console.log(
        JSON.stringify({
          layer: `${l.width}x${l.height} ${name}`.trim(),
          why: why.compositingReasonIds,
          repaints: l.paintCount,
          replay_ms: Math.round(cost.reduce((a, b) => a + b, 0) * 1e5) / 100,
          costliest: top.map(([t, m]) => `${m} ${Math.round(t * 1e5) / 100} ms`),
        }),
      );
    }
    await ctx.close();
  } else if (MODE === "trace") {
    // Per update, from the trace: the task that handles it, its main frame (style, layout, paint,
    // commit), the tiles rastered for it and the display compositor's drawing of the frame (software:
    // every quad inside the frame's damage, a single rectangle). Then the same figures for a change of
    // one line of the table's text (the action bar's), which damages a few tiles only.
    const { ctx, page, messages } = await tablePage();
    const cdp = await ctx.newCDPSession(page);
    const events = [];
    cdp.on("Tracing.dataCollected", (d) => events.push(...d.value));
    const done = new Promise((ok) => cdp.once("Tracing.tracingComplete", ok));
    await cdp.send("Tracing.start", { transferMode: "ReportEvents", traceConfig: { includedCategories: ["devtools.timeline", "cc", "viz"] } });
    await page.evaluate(play, messages);
    await page.evaluate(oneLine, 30);
    await cdp.send("Tracing.end");
    await done;
    // each update (each one-line change) is the timer task of play() (oneLine()) that stamped it; what
    // follows it within 60 ms (the next comes 120 ms later) is its frame
    const tasks = events.filter((e) => e.name === "TimerFire");
    const stamped = (label) =>
      events
        .filter((e) => e.name === "TimeStamp" && e.args?.data?.message === label)
        .map((st) => tasks.find((t) => t.ts <= st.ts && st.ts <= t.ts + t.dur))
        .filter(Boolean);
    const updates = stamped("update");
    const lines = stamped("line");
    const within = (t, name) => events.filter((e) => e.ph === "X" && e.name === name && e.ts >= t.ts && e.ts < t.ts + 60000);
    const ms = (xs) => xs.reduce((a, e) => a + e.dur, 0) / 1000;
    const row = (t) => {
      const raster = within(t, "RasterTask");
      return {
        task: t.dur / 1000,
        main_frame: ms(within(t, "ProxyMain::BeginMainFrame")),
        raster: ms(raster),
        tiles: raster.length,
        draw: ms(within(t, "Display::DrawAndSwap")),
        quads: within(t, "SoftwareRenderer::DoDrawQuad").length,
      };
    };
    const summary = (rows) => Object.fromEntries(Object.keys(rows[0]).map((k) => [k, Math.round(median(rows.map((r) => r[k])) * 10) / 10]));
    console.log(JSON.stringify({ mode: "trace", what: "an update", n: updates.length, ...summary(updates.map(row)) }));
    console.log(JSON.stringify({ mode: "trace", what: "one line changed", n: lines.length, ...summary(lines.map(row)) }));
    await ctx.close();
  } else throw new Error(`unknown mode ${MODE}: floor, moves, layers or trace`);
} finally {
  await browser.close();
  server?.close();
}
