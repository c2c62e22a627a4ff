// Where a frame of the table spends its time (issue "a table worth sitting at"): the figures behind
// BENCHMARKS.md's account of bench-frames.mjs's latency. Not a test; run on a quiet machine.
//
//   node bench-paint.mjs floor    the same latency measurement (Element Timing of a marker added in
//                                 the task) on a page that changes one line of text per update:
//                                 the pipeline's floor on this machine
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
import { benchTablePage } from "./bench-page.mjs";
import { serveDist } from "./serve-dist.mjs";
import { pickStates } from "./states.mjs";

const ROOT = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const MODE = process.argv[2] ?? "floor";
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium" });
const server = MODE === "floor" ? null : await serveDist(resolve(process.env.EVR_LAYOUT_DIST ?? join(ROOT, "web-client/dist")));

/** A page of the table showing seed 101's game as the Rebel sees it, and its messages. */
async function tablePage() {
  const [game] = pickStates({ evr: process.env.EVR_CLI_BIN ?? join(ROOT, "target/release/evr"), games: 1, firstSeed: 101 }).filter((g) => g.viewer === "rebel");
  return benchTablePage(browser, server, game);
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

try {
  if (MODE === "floor") {
    const page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
    await page.setContent(`<body style="background:#0b0e17;color:#eef1f7"><p id="t">update</p></body>`);
    const ms = await page.evaluate(async () => {
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
        m.style.cssText = "position:fixed;right:0;bottom:0;font-size:8px;color:#555";
        document.body.append(m);
        sent.push({ id: `m${i}`, t0 });
        await new Promise((ok) => setTimeout(ok, 120));
      }
      await new Promise((ok) => setTimeout(ok, 500));
      return sent.filter((s) => painted.has(s.id)).map((s) => painted.get(s.id) - s.t0);
    });
    const s = [...ms].sort((a, b) => a - b);
    console.log(JSON.stringify({ mode: "floor", updates: s.length, p50_ms: Math.round(median(s) * 10) / 10, p95_ms: Math.round(s[Math.floor(s.length * 0.95)] * 10) / 10 }));
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
  } else throw new Error(`unknown mode ${MODE}: floor, layers or trace`);
} finally {
  await browser.close();
  server?.close();
}
