// End-to-end browser test of EvR Online: two players create / join a room and play a whole game
// through the real UI in Debian's chromium (playwright-core), while a spectator watches. The Rebel
// creator (desktop) uses the keyboard only (Tab / Shift+Tab, Enter, Space, arrow keys); the Imperial
// guest is a 375 px phone (touch emulation) and taps. Every render of every page is audited:
// accessible names, ready/exhausted shown by text (not colour alone), no horizontal overflow, no
// clipped or overlapping text (layout.mjs); the desktop player's decisions fit 1280×800 and 1366×768;
// axe-core checks every screen in the three languages at 1280×800 and 375×812.
// Run with `node --test e2e.test.mjs` (see README.md); run.sh starts the server.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, mkdirSync, readFileSync, readdirSync, rmSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";
import { chromium } from "playwright-core";
import { detailNearCard, decisionInView, gameOverFits, landingFits, nameBreaks, powerPreview, reachableAboveBar, repeatedSecretMarks, replayControlsFit } from "./fits.mjs";
import { foldProblems, textAudit } from "./layout.mjs";
import { freePort } from "./util.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = resolve(HERE, "../..");
/** The protocol version the server speaks (generated from the Rust crate). */
const PROTOCOL_VERSION = Number(/PROTOCOL_VERSION = (\d+)/.exec(readFileSync(join(REPO, "proto/ts/constants.ts"), "utf8"))?.[1]);
const ARTIFACTS = process.env.E2E_ARTIFACTS ?? join(HERE, "artifacts");
const SEED = Number(process.env.E2E_SEED ?? 20261122) >>> 0;
/** Every game's deal: the server's test-only --test-fixed-seed (run.sh passes the same default). */
const DEAL_SEED = Number(process.env.E2E_DEAL_SEED ?? 20261126) >>> 0;
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const GAME_TIMEOUT_MS = Number(process.env.E2E_GAME_TIMEOUT_MS ?? 240_000);
const STEP_TIMEOUT_MS = 30_000;
// the desktop player's screen: a laptop (1280×800) and, alternating by round, 1366×768; every
// decision of a turn must fit either without scrolling
const DESKTOP_SIZES = [
  { width: 1280, height: 800 },
  { width: 1366, height: 768 },
];

// the players' display names: the guest's is markup, which every page must show as text
const CREATOR_NAME = "Mira";
const GUEST_NAME = "<img src=x onerror=p()>";

/** What does not fit where it must (fits.mjs), each once with where it was first seen. */
const FITS = [];
async function fits(page, fn, arg, where) {
  // after the moves under way have ended: a card arriving in a play area slides in from its pile,
  // scaled down to a fifth (ui/travel.ts), and a box measured mid-flight is too small or elsewhere.
  // How far along a flight is when a check runs depends on the machine's load (on a loaded CI run
  // a phone card's power text measured under 5 px). Endless animations (a marker's pulse) are not
  // waited for, and no flight takes longer than the cap.
  await page.evaluate(() =>
    Promise.race([
      Promise.all(
        document
          .getAnimations()
          .filter((a) => Number.isFinite(a.effect?.getComputedTiming().endTime ?? Infinity))
          .map((a) => a.finished.catch(() => {})),
      ),
      new Promise((r) => setTimeout(r, 2000)),
    ]),
  );
  // after the page's last render has been laid out and its observers (the bars' heights) have run
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const found = await page.evaluate(fn, arg ?? null);
  for (const p of found) if (!FITS.some((f) => f.endsWith(p))) FITS.push(`[${where}] ${p}`);
  return found;
}

const t0 = Date.now();
const log = (msg) => console.log(`[e2e +${((Date.now() - t0) / 1000).toFixed(1)}s] ${msg}`);

// ---------------------------------------------------------------- names (oracle for leaks)
const cards = JSON.parse(readFileSync(join(REPO, "crates/rules/data/cards.json"), "utf8"));
const CHARACTERS = [...cards.characters.rebel, ...cards.characters.imperial].map((c) => c.name);
/** Localized forms of the characters' names (the `characters` of web-client/src/i18n/packs/zhHant.ts
 *  and ja.ts): character → [繁體中文, 日本語]. */
const LOCAL_NAMES = (() => {
  const out = {};
  for (const file of ["zhHant.ts", "ja.ts"]) {
    const src = readFileSync(join(REPO, "web-client/src/i18n/packs", file), "utf8");
    const block = src.match(/\n {4}characters: \{\n([\s\S]*?)\n {4}\},/)?.[1] ?? "";
    for (const m of block.matchAll(/^\s*"?([^":\n]+?)"?:\s*"([^"]+)",/gm)) (out[m[1]] ??= []).push(m[2]);
  }
  // the leak oracle below must know every character in every language, or it would look for less
  assert.equal(Object.keys(out).length, CHARACTERS.length, "every character's localized names read from the packs");
  assert.ok(Object.values(out).every((forms) => forms.length === 2), "each character has a 繁體中文 and a 日本語 name");
  return out;
})();
/** character → every form it may take in the DOM (en, zh-Hant, ja) */
const NAME_FORMS = CHARACTERS.map((c) => [c, [c, ...(LOCAL_NAMES[c] ?? [])]]);
const fromLocal = (text) => NAME_FORMS.find(([, forms]) => forms.includes(text.trim()))?.[0] ?? null;
/** The card state words per language (web-client/src/i18n/{en,zhHant,ja}.ts): lang → { ready, exhausted }. */
const STATE_WORDS = (() => {
  const out = {};
  for (const [lang, file] of [["en", "en.ts"], ["zh-Hant", "zhHant.ts"], ["ja", "ja.ts"]]) {
    const src = readFileSync(join(REPO, "web-client/src/i18n", file), "utf8");
    const word = (key) => src.match(new RegExp(`"${key.replace(".", "\\.")}"\\s*:\\s*"([^"]+)"`))?.[1];
    out[lang] = { ready: word("card.ready"), exhausted: word("card.exhausted") };
  }
  return out;
})();

// ---------------------------------------------------------------- seeded RNG
function mulberry32(a) {
  return () => {
    a |= 0;
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const pickIndex = (rng, n) => Math.floor(rng() * n);

// ---------------------------------------------------------------- server
async function waitHealthy(base, ms = 20_000) {
  const until = Date.now() + ms;
  for (;;) {
    try {
      const r = await fetch(base + "/healthz");
      if (r.ok) return;
    } catch {}
    if (Date.now() > until) throw new Error(`server at ${base} not healthy within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Uses EVR_BASE_URL (run.sh starts the server) or starts target/release/evr-server itself. */
async function startServer() {
  if (process.env.EVR_BASE_URL) {
    const base = process.env.EVR_BASE_URL.replace(/\/$/, "");
    await waitHealthy(base);
    return { base, stop: async () => {} };
  }
  const bin = process.env.EVR_SERVER_BIN ?? join(REPO, "target/release/evr-server");
  if (!existsSync(bin)) throw new Error(`${bin} missing: build it (see README.md) or set EVR_BASE_URL`);
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), "evr-e2e-data-"));
  const proc = spawn(bin, ["--bind", `127.0.0.1:${port}`, "--data-dir", dataDir, "--messages-per-second", "1000", "--test-fixed-seed", String(DEAL_SEED)], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  proc.stderr.on("data", (d) => (stderr = (stderr + d).slice(-4000)));
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitHealthy(base);
  } catch (e) {
    proc.kill("SIGKILL");
    throw new Error(`${e.message}\n${stderr}`);
  }
  log(`server started: ${base} (data ${dataDir}, pid ${proc.pid})`);
  return {
    base,
    stop: async () => {
      if (proc.exitCode === null) {
        proc.kill("SIGTERM");
        await Promise.race([new Promise((r) => proc.once("exit", r)), new Promise((r) => setTimeout(r, 5000))]);
        if (proc.exitCode === null) proc.kill("SIGKILL");
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

// ---------------------------------------------------------------- per-page frame tracking
/** Every frame a page received over its WebSocket(s), read from the browser via CDP. */
function track(page, name) {
  const P = { page, name, seq: -1, frames: 0, sent: 0, errors: [], welcomes: [], lastView: null, room: null, you: null, waiters: new Set(), actions: 0, chosen: [], refused: [] };
  attach(P, page);
  return P;
}

/** Records `page`'s frames into player `P` (a seat moved to another device plays on from there). */
function attach(P, page) {
  P.page = page;
  page.on("websocket", (ws) => {
    ws.on("framesent", ({ payload }) => {
      if (/"type"\s*:\s*"action"/.test(typeof payload === "string" ? payload : payload.toString("utf8"))) P.sent++;
    });
    ws.on("framereceived", ({ payload }) => {
      let m;
      try {
        m = JSON.parse(typeof payload === "string" ? payload : payload.toString("utf8"));
      } catch {
        return;
      }
      P.frames++;
      if (typeof m.seq === "number" && (m.type === "update" || m.type === "welcome")) P.seq = m.seq;
      if (m.view) P.lastView = m.view;
      else if (m.changes && P.lastView) P.lastView = { ...P.lastView, ...m.changes };
      if (m.room) P.room = m.room;
      if (m.type === "welcome") {
        P.you = m.you;
        P.welcomes.push(m.you);
      }
      if (m.type === "error") P.errors.push(m.code);
      for (const w of P.waiters) w(m);
    });
  });
  page.on("pageerror", (err) => {
    P.pageErrors ??= [];
    P.pageErrors.push(String(err));
  });
  // whatever the page's Content-Security-Policy blocks is a page error: the client must need nothing
  // it refuses (crates/server/src/defences.rs)
  page.on("console", (m) => {
    if (m.type() === "error" && m.text().includes("Content Security Policy")) (P.pageErrors ??= []).push(m.text());
  });
}

/** Waits until `cond()` holds for frames already tracked (CDP events may trail the DOM by a moment). */
async function until(cond, what, ms = 10_000) {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Resolves when a frame satisfying `pred` arrives (or rejects after `ms`); `.cancel()` drops it. */
function waitFrame(P, pred, ms, what) {
  let w, timer, reject;
  const p = new Promise((res, rej) => {
    reject = rej;
    timer = setTimeout(() => {
      P.waiters.delete(w);
      rej(new Error(`${P.name}: no ${what} within ${ms} ms`));
    }, ms);
    w = (m) => {
      if (pred(m)) {
        clearTimeout(timer);
        P.waiters.delete(w);
        res(m);
      }
    };
    P.waiters.add(w);
  });
  p.cancel = () => {
    clearTimeout(timer);
    P.waiters.delete(w);
    reject(new Error("cancelled"));
  };
  return p;
}

/** After a click that sends an action: its own answer (`ack`, then the update it names, or a
 *  refusal `error`). Resolves to { ok, code }; never rejects (a click that did not happen simply
 *  times out into { ok: false, code: "no_answer" }). */
function actionAnswer(P) {
  const own = waitFrame(P, (m) => m.type === "ack" || (m.type === "error" && m.action_id), 15_000, "answer to the action");
  const p = own
    .then(async (m) => {
      if (m.type === "error") {
        P.refused.push(m.code);
        log(`${P.name}: action refused by the server (${m.code}); the client re-renders, deciding again`);
        return { ok: false, code: m.code };
      }
      if (P.seq < m.seq) await waitFrame(P, (u) => (u.type === "update" || u.type === "welcome") && u.seq >= m.seq, 15_000, `update ${m.seq}`);
      return { ok: true, seq: m.seq };
    })
    .catch(() => ({ ok: false, code: "no_answer" }));
  p.cancel = () => own.cancel();
  return p;
}

// ---------------------------------------------------------------- spectator leak oracle (in page)
/** Installed before the page's scripts: records the spectator's frames and checks the DOM after
 *  every render against the latest view (and the log drawer against every frame so far). */
function spectatorSpy(nameForms) {
  const st = {
    latest: new Set(), // characters named in the latest view JSON
    ever: new Set(), // characters named in any frame received so far
    frames: 0,
    views: 0,
    checks: 0,
    violations: [],
    firstShown: {}, // character → { view index, had it been in a frame }
    phase: null,
    view: null,
  };
  window.__evr = st;
  const namesIn = (s) => nameForms.filter(([c]) => s.includes(JSON.stringify(c).slice(1, -1))).map(([c]) => c);
  const Native = window.WebSocket;
  class SpyWebSocket extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (ev) => {
        if (typeof ev.data !== "string") return;
        st.frames++;
        for (const c of namesIn(ev.data)) st.ever.add(c);
        let m;
        try {
          m = JSON.parse(ev.data);
        } catch {
          return;
        }
        // the view as the page holds it: a welcome's, then each update's changes applied
        if (m.view) st.view = m.view;
        else if (m.changes && st.view) st.view = { ...st.view, ...m.changes };
        if (m.view || m.changes) {
          st.views++;
          st.phase = st.view.phase;
          st.latest = new Set(namesIn(JSON.stringify(st.view)));
        }
      });
    }
  }
  window.WebSocket = SpyWebSocket;
  st.check = (why) => {
    st.checks++;
    if (!document.body) return;
    const root = document.body.cloneNode(true);
    // the card reference drawer lists every card by design; event effect paraphrases name
    // characters (e.g. "Only Luke Skywalker and Darth Vader…"); the log is checked separately
    for (const el of root.querySelectorAll(".reference, p.effect, details.log, script")) el.remove();
    const text = root.textContent ?? "";
    const logEl = [...document.querySelectorAll("details.log")].find((d) => !d.classList.contains("reference"));
    const logText = logEl?.textContent ?? "";
    for (const [c, forms] of nameForms) {
      const inText = forms.some((f) => text.includes(f));
      const inLog = forms.some((f) => logText.includes(f));
      if ((inText || inLog) && !(c in st.firstShown)) st.firstShown[c] = { view: st.views, phase: st.phase, known: st.ever.has(c) };
      if (inText && !st.latest.has(c)) st.violations.push(`${why}: "${c}" shown but not in the latest spectator view (#${st.views}, ${st.phase})`);
      if (inLog && !st.ever.has(c)) st.violations.push(`${why}: "${c}" in the log but in no spectator frame`);
    }
  };
  // check after each render settles: in a new task, after the message handler and its microtasks
  let scheduled = false;
  const observer = new MutationObserver(() => {
    if (scheduled) return;
    scheduled = true;
    setTimeout(() => {
      scheduled = false;
      st.check("render");
    }, 0);
  });
  const start = () => observer.observe(document.documentElement, { subtree: true, childList: true, characterData: true });
  if (document.documentElement) start();
  else document.addEventListener("DOMContentLoaded", start);
}

// ---------------------------------------------------------------- page auditor (in page)
/** Installed on every page before its scripts. After every render (a MutationObserver, run in a
 *  fresh task once the render has settled) and whenever the test asks (`__audit.run(why)`), checks:
 *  - accessible names: every visible button, input, select, textarea, a[href], summary and element
 *    with role img / button / radio / checkbox / link has a non-empty accessible name;
 *  - ready / exhausted not by colour alone: every card in play carries a visible text state label
 *    ("exhausted" / "ready" in the page's language) and its accessible name names that state;
 *  - no horizontal overflow: document scrollWidth <= the viewport width + 1 (the offending element
 *    is the widest element whose right edge is past the viewport and not clipped by a scroller).
 *  Problems are recorded once each (with a count and the page state where first seen). */
function auditor(opts) {
  // width: the phone's 375 px (the axe pass sets it while it shows the page wider for a moment)
  const st = { checks: 0, problems: [], index: {}, states: {}, exhaustedCards: 0, readyCards: 0, maxScrollWidth: 0, width: opts.width ?? null };
  window.__audit = st;
  // which element had focus last (for the keyboard walk's direction when focus fell to <body>)
  document.addEventListener("focusin", (e) => (window.__e2eLastFocus = e.target), true);
  const short = (el) => {
    let s = el.tagName.toLowerCase();
    if (el.id) s += "#" + el.id;
    for (const c of el.classList) s += "." + c;
    const role = el.getAttribute("role");
    if (role) s += `[role=${role}]`;
    if (el.getAttribute("name")) s += `[name=${el.getAttribute("name")}]`;
    if (el.getAttribute("type") && el.tagName === "INPUT") s += `[type=${el.getAttribute("type")}]`;
    return s;
  };
  const describe = (el) => {
    const path = [];
    for (let p = el.parentElement, i = 0; p && p !== document.body && i < 3; p = p.parentElement, i++) path.unshift(short(p));
    const text = (el.textContent ?? "").replace(/\s+/g, " ").trim().slice(0, 50);
    return `${[...path, short(el)].join(" > ")}${text ? ` "${text}"` : ""}`;
  };
  st.describe = describe;
  // further checks registered by other init scripts (layout.mjs: clipped and overlapping text)
  st.extraChecks = [];
  // the page's language: the language picker's value changes with the render itself (<html lang> is
  // set by an effect a moment later)
  const pageLang = () => document.querySelector(".lang select")?.value || document.documentElement.lang;
  const hidden = (el) => {
    const cs = getComputedStyle(el);
    return cs.display === "none" || cs.visibility === "hidden";
  };
  const shown = (el) => {
    const r = el.getBoundingClientRect();
    return r.width >= 1 && r.height >= 1 && !hidden(el) && Number(getComputedStyle(el).opacity) > 0;
  };
  st.shown = shown;
  const stateKey = () => {
    const parts = [];
    for (const [k, sel] of [["landing", ".landing"], ["lobby", ".lobby"], ["characters", ".chars"], ["planning", ".planning"], ["table", ".table"],
      ["dialog", '[role="dialog"]'], ["dominance", ".dominance"], ["game-over", ".gameover"], ["card-detail", "aside.card-detail"], ["toast", ".toast"]]) {
      if (document.querySelector(sel)) parts.push(k);
    }
    if (!parts.length && document.querySelector("main")) parts.push(location.pathname.includes("/join") ? "join" : "other");
    return `${pageLang()}:${parts.join("+") || "empty"}`;
  };
  const add = (kind, key, detail) => {
    const k = kind + "|" + key;
    if (k in st.index) {
      st.problems[st.index[k]].count++;
      return;
    }
    st.index[k] = st.problems.length;
    st.problems.push({ kind, detail, where: stateKey(), path: location.pathname, count: 1 });
  };
  st.add = add;

  // text alternative from content (accname, simplified): skips aria-hidden and not-rendered nodes
  const fromContent = (node, skip) => {
    if (node === skip) return "";
    if (node.nodeType === 3) return node.textContent;
    if (node.nodeType !== 1) return "";
    if (node.getAttribute("aria-hidden") === "true" || hidden(node)) return "";
    const al = node.getAttribute("aria-label");
    if (al && al.trim()) return al;
    if (node.tagName === "IMG") return node.getAttribute("alt") ?? "";
    if (node.tagName === "SELECT" || node.tagName === "INPUT") return "";
    return [...node.childNodes].map((n) => fromContent(n, skip)).join(" ");
  };
  const accName = (el) => {
    const lb = el.getAttribute("aria-labelledby");
    if (lb) {
      const s = lb.split(/\s+/).map((id) => document.getElementById(id)).filter(Boolean).map((e) => fromContent(e)).join(" ").trim();
      if (s) return s;
    }
    const al = el.getAttribute("aria-label");
    if (al && al.trim()) return al.trim();
    if (el.tagName === "INPUT" && ["button", "submit", "reset"].includes(el.type)) return (el.value || "").trim();
    if (["INPUT", "SELECT", "TEXTAREA"].includes(el.tagName)) {
      const s = [...(el.labels ?? [])].map((l) => fromContent(l, el)).join(" ").trim();
      if (s) return s;
      return (el.getAttribute("title") || el.getAttribute("placeholder") || "").trim();
    }
    if (el.getAttribute("role") === "img" || el.tagName.toLowerCase() === "svg") {
      const title = el.querySelector(":scope > title")?.textContent;
      return (el.getAttribute("title") || title || "").trim();
    }
    return (fromContent(el).replace(/\s+/g, " ").trim() || el.getAttribute("title") || "").trim();
  };
  const CONTROLS = 'button, input:not([type="hidden"]), select, textarea, a[href], summary, [role="img"], [role="button"], [role="radio"], [role="checkbox"], [role="link"]';

  const checkNames = () => {
    for (const el of document.querySelectorAll(CONTROLS)) {
      if (!shown(el) && !(el.matches('input[type="radio"], input[type="checkbox"]') && shown(el.closest("label") ?? el))) continue;
      if (el.closest('[aria-hidden="true"]')) continue;
      if (!accName(el)) add("unnamed", describe(el), `no accessible name: ${describe(el)} — ${el.outerHTML.slice(0, 160)}`);
    }
  };

  const checkCardStates = () => {
    const lang = pageLang();
    const words = opts.words[lang];
    if (!words) {
      add("state", "lang", `unknown page language ${lang}`);
      return;
    }
    for (const slot of document.querySelectorAll(".playarea .card-slot")) {
      const card = slot.querySelector(":scope > .card");
      if (!card) continue;
      const name = card.querySelector(".name")?.textContent?.trim() ?? "?";
      const ex = slot.getAttribute("data-exhausted") === "true";
      const stateWord = ex ? words.exhausted : words.ready;
      if (ex) st.exhaustedCards++;
      else st.readyCards++;
      if (ex !== card.classList.contains("exhausted")) add("state", "class|" + name, `${name}: .card-slot[data-exhausted=${ex}] but .card ${ex ? "lacks" : "has"} class "exhausted": ${describe(card)}`);
      const label = slot.querySelector(`:scope > .state.${ex ? "is-exhausted" : "is-ready"}`);
      if (!label) add("state", "nolabel|" + ex + name, `${name} (${ex ? "exhausted" : "ready"}) has no .state.${ex ? "is-exhausted" : "is-ready"} text label: ${describe(slot)}`);
      else {
        const text = label.textContent.trim();
        if (!text || !shown(label)) add("state", "hidden|" + ex + name, `${name}: the state label "${text}" is empty or not visible: ${describe(label)}`);
        else if (text !== stateWord) add("state", "word|" + ex + name, `${name}: the state label says "${text}", expected "${stateWord}" (${lang})`);
        else if (!card.getAnimations().length) {
          // the (rotated) card must not cover its own label once its transition has finished
          const c = card.getBoundingClientRect();
          const l = label.getBoundingClientRect();
          const overlap = Math.min(c.bottom, l.bottom) - Math.max(c.top, l.top);
          if (overlap > 2 && Math.min(c.right, l.right) > Math.max(c.left, l.left)) add("state", "covered|" + ex + name, `${name}: the card covers its state label "${text}" by ${Math.round(overlap)} px: ${describe(label)}`);
        }
      }
      // (a focusable face is named by its content: its visible name, then the rest for screen readers)
      const aria = accName(card);
      if (!aria.includes(stateWord)) add("state", "aria|" + ex + name, `${name}: the card's accessible name "${aria}" does not contain "${stateWord}"`);
    }
    for (const card of document.querySelectorAll(".card.exhausted")) {
      if (card.closest('.card-slot[data-exhausted="true"]') !== card.parentElement) add("state", "orphan|" + describe(card), `.card.exhausted outside .card-slot[data-exhausted=true]: ${describe(card)}`);
    }
  };

  const checkOverflow = () => {
    // A phone page that overflows makes chromium widen the layout viewport (innerWidth grows to the
    // content), so compare with the configured width and clientWidth too.
    const vw = Math.min(window.innerWidth, document.documentElement.clientWidth, st.width ?? Infinity);
    const sw = document.documentElement.scrollWidth;
    st.maxScrollWidth = Math.max(st.maxScrollWidth, sw);
    if (sw <= vw + 1) return;
    const clipped = (el) => {
      for (let p = el.parentElement; p && p !== document.documentElement; p = p.parentElement) {
        if (p === document.body) return false;
        if (getComputedStyle(p).overflowX !== "visible") return p.getBoundingClientRect().right + scrollX <= vw + 1;
      }
      return false;
    };
    const over = [];
    for (const el of document.body.querySelectorAll("*")) {
      const r = el.getBoundingClientRect();
      if (r.width > 0 && r.right + scrollX > vw + 1 && !clipped(el)) over.push({ el, r });
    }
    over.sort((a, b) => b.r.width - a.r.width);
    const widest = over[0];
    const roots = over.filter(({ el }) => {
      const p = el.parentElement;
      return !p || p === document.body || p.getBoundingClientRect().right + scrollX <= vw + 1;
    });
    const culprit = roots[0] ?? widest;
    const fmt = (o) => `${describe(o.el)} (left ${Math.round(o.r.left + scrollX)}, right ${Math.round(o.r.right + scrollX)}, width ${Math.round(o.r.width)} px)`;
    add(
      "overflow",
      culprit ? describe(culprit.el) : "?",
      `horizontal overflow: document.documentElement.scrollWidth ${sw} > viewport ${vw} (innerWidth ${window.innerWidth}); ` +
        `widest element past the right edge: ${widest ? fmt(widest) : "none found"}; overflow starts at: ${roots.slice(0, 3).map(fmt).join(" | ") || "?"}`,
    );
  };

  st.run = (why) => {
    if (!document.body) return;
    st.checks++;
    const k = stateKey();
    st.states[k] = (st.states[k] ?? 0) + 1;
    try {
      checkNames();
      checkCardStates();
      checkOverflow();
      for (const check of st.extraChecks) check();
    } catch (e) {
      add("auditor", String(e), `auditor error (${why}): ${e}`);
    }
  };
  let scheduled = false;
  const observer = new MutationObserver(() => {
    if (scheduled) return;
    scheduled = true;
    setTimeout(() => {
      scheduled = false;
      st.run("render");
    }, 0);
  });
  const start = () => observer.observe(document.documentElement, { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ["class", "lang", "data-exhausted", "aria-label"] });
  if (document.documentElement) start();
  else document.addEventListener("DOMContentLoaded", start);
}

/** Copies a page's audit results into P.audit (before a reload and at the end). */
async function harvestAudit(P) {
  const a = await P.page.evaluate(() => {
    const st = window.__audit;
    return st && { checks: st.checks, problems: st.problems, states: st.states, exhaustedCards: st.exhaustedCards, readyCards: st.readyCards, maxScrollWidth: st.maxScrollWidth };
  });
  if (!a) return;
  P.audit ??= { checks: 0, problems: [], states: {}, exhaustedCards: 0, readyCards: 0, maxScrollWidth: 0 };
  P.audit.checks += a.checks;
  P.audit.exhaustedCards += a.exhaustedCards;
  P.audit.readyCards += a.readyCards;
  P.audit.maxScrollWidth = Math.max(P.audit.maxScrollWidth, a.maxScrollWidth);
  for (const [k, n] of Object.entries(a.states)) P.audit.states[k] = (P.audit.states[k] ?? 0) + n;
  for (const p of a.problems) {
    const same = P.audit.problems.find((q) => q.kind === p.kind && q.detail === p.detail);
    if (same) same.count += p.count;
    else P.audit.problems.push(p);
  }
}

// ---------------------------------------------------------------- accessible names per chromium
/** Chromium's own accessibility tree (CDP Accessibility.getFullAXTree) at each screenshot: every
 *  exposed control or image must have a non-empty computed name (a cross-check of the in-page rule). */
const AX_ROLES = new Set(["button", "link", "image", "img", "combobox", "listbox", "radio", "checkbox", "textbox", "searchbox", "switch", "tab", "menuitem", "slider", "spinbutton", "DisclosureTriangle"]);
const axSessions = new WeakMap();
const AX_PROBLEMS = [];
let axChecked = 0;
async function axAudit(page, moment) {
  let cdp = axSessions.get(page);
  if (!cdp) {
    cdp = await page.context().newCDPSession(page);
    axSessions.set(page, cdp);
  }
  const { nodes } = await cdp.send("Accessibility.getFullAXTree");
  for (const n of nodes) {
    if (n.ignored || !AX_ROLES.has(n.role?.value)) continue;
    axChecked++;
    if (String(n.name?.value ?? "").trim()) continue;
    let what = `${n.role.value} (backend node ${n.backendDOMNodeId})`;
    try {
      const { object } = await cdp.send("DOM.resolveNode", { backendNodeId: n.backendDOMNodeId });
      const { result } = await cdp.send("Runtime.callFunctionOn", {
        objectId: object.objectId,
        functionDeclaration: "function () { return (window.__audit?.describe?.(this) ?? this.tagName) + ' — ' + this.outerHTML.slice(0, 160); }",
        returnByValue: true,
      });
      what = `${n.role.value}: ${result.value}`;
    } catch {}
    if (!AX_PROBLEMS.some((p) => p.endsWith(what))) AX_PROBLEMS.push(`[${moment}] ${what}`);
  }
}

// ---------------------------------------------------------------- axe-core (Deque's accessibility engine)
/** axe-core's own build (tests/e2e/node_modules, an exact version in package.json): injected into a
 *  page the first time it is checked, then `axe.run` at each screen the test visits (every language,
 *  1280×800 and 375×812). A violation of impact serious or critical fails the test, and so does
 *  page-has-heading-one whatever its impact; every check is a row of the table printed at the end. */
const AXE_PATH = createRequire(import.meta.url).resolve("axe-core/axe.min.js");
const AXE_SOURCE = readFileSync(AXE_PATH, "utf8");
const AXE_VERSION = JSON.parse(readFileSync(join(dirname(AXE_PATH), "package.json"), "utf8")).version;
const AXE_DESKTOP = { width: 1280, height: 800 };
const AXE_PHONE = { width: 375, height: 812 };
const AXE_LANGS = ["en", "zh-Hant", "ja"];
/** every check: { screen, lang, size, fails: [{ id, impact, nodes, targets }], minor: [...] } */
const AXE_ROWS = [];
let axeMs = 0;
const axeFails = (v) => v.impact === "serious" || v.impact === "critical" || v.id === "page-has-heading-one";

/** Runs axe on `page` as it is now, at each of `sizes` (the viewport goes back afterwards), and
 *  records a row per size under `screen` in the page's language. */
async function axeCheck(page, screen, sizes) {
  const t = Date.now();
  // evaluated, not added as a <script>: the page's policy runs no inline script (defences.rs)
  if (!(await page.evaluate(() => typeof window.axe?.run === "function"))) await page.evaluate(AXE_SOURCE);
  const size0 = page.viewportSize();
  // a phone page's overflow audit compares with its 375 px: while it is shown wider, with that width
  const width0 = await page.evaluate(() => window.__audit?.width ?? null);
  try {
    for (const size of sizes) {
      if (size.width !== page.viewportSize().width || size.height !== page.viewportSize().height) {
        if (width0 !== null && size.width > width0) await page.evaluate((w) => (window.__audit.width = w), size.width);
        await page.setViewportSize(size);
        if (width0 !== null && size.width <= width0) await page.evaluate((w) => (window.__audit.width = w), width0);
      }
      // once the page's transitions and movements are over (a card fading in has no contrast yet)
      await page.evaluate(() =>
        Promise.race([Promise.all(document.getAnimations().map((a) => a.finished.catch(() => {}))), new Promise((r) => setTimeout(r, 600))]),
      );
      const res = await page.evaluate(async () => {
        const t = performance.now();
        const r = await window.axe.run(document, { resultTypes: ["violations"] });
        return {
          ms: Math.round(performance.now() - t),
          lang: document.documentElement.lang,
          violations: r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length, targets: v.nodes.slice(0, 3).map((n) => n.target.join(" ")), help: v.help })),
        };
      });
      const row = { screen, lang: res.lang, size: `${size.width}×${size.height}`, ms: res.ms, fails: res.violations.filter(axeFails), minor: res.violations.filter((v) => !axeFails(v)) };
      AXE_ROWS.push(row);
      // every screen checked, as it was checked: the artifacts hold each screen at both sizes in the
      // three languages (the first screen; the phase screenshots show whole pages)
      await page.screenshot({ path: join(ARTIFACTS, `axe-${screen.replace(/[^\w-]+/g, "_")}-${row.lang}-${size.width}x${size.height}.png`) });
      if (row.fails.length) log(`axe ${screen} ${row.lang} ${row.size}: ${row.fails.map((v) => `${v.id} (${v.impact}, ${v.nodes}×: ${v.targets[0]})`).join("; ")}`);
    }
  } finally {
    if (size0 && (size0.width !== page.viewportSize().width || size0.height !== page.viewportSize().height)) await page.setViewportSize(size0);
    if (width0 !== null) await page.evaluate((w) => (window.__audit.width = w), width0);
    axeMs += Date.now() - t;
  }
}

/** axeCheck in each of the three languages (the header's language <select>), then the page's own again. */
async function axeEverywhere(page, screen, sizes) {
  const sel = ".lang select";
  const lang0 = await page.$eval(sel, (s) => s.value);
  for (const l of AXE_LANGS) {
    await page.selectOption(sel, l);
    await page.waitForFunction((l) => document.documentElement.lang === l, l);
    await axeCheck(page, screen, sizes);
  }
  await page.selectOption(sel, lang0);
  await page.waitForFunction((l) => document.documentElement.lang === l, lang0);
}

/** The table of every axe check: screen × language × size → ok, or the violations that fail. */
function axeTable() {
  const lines = [`axe-core ${AXE_VERSION}: ${AXE_ROWS.length} checks in ${(axeMs / 1000).toFixed(1)} s (fails on impact serious / critical and on page-has-heading-one)`];
  const w = { screen: Math.max(6, ...AXE_ROWS.map((r) => r.screen.length)), lang: 7, size: 8 };
  lines.push(`  ${"screen".padEnd(w.screen)}  ${"lang".padEnd(w.lang)}  ${"size".padEnd(w.size)}  ${"ms".padStart(5)}  result`);
  // grouped by screen, in the order the screens came
  const screens = [...new Set(AXE_ROWS.map((r) => r.screen))];
  const rows = AXE_ROWS.map((r, i) => ({ r, i })).sort((a, b) => screens.indexOf(a.r.screen) - screens.indexOf(b.r.screen) || a.i - b.i);
  for (const { r } of rows) {
    const minor = r.minor.length ? ` (also ${r.minor.map((v) => `${v.id}: ${v.impact}`).join(", ")})` : "";
    const result = r.fails.length ? r.fails.map((v) => `${v.id} [${v.impact}] ×${v.nodes}: ${v.targets.join(" | ")}`).join("; ") : "ok";
    lines.push(`  ${r.screen.padEnd(w.screen)}  ${r.lang.padEnd(w.lang)}  ${r.size.padEnd(w.size)}  ${String(r.ms).padStart(5)}  ${result}${minor}`);
  }
  return lines.join("\n");
}

// ---------------------------------------------------------------- UI helpers
/** A screenshot once the page's transitions have finished. Full page: scrolled to the top (else the
 *  sticky header shows in the middle), and with the viewport as tall as the page for the moment of the
 *  shot, so that fixed and sticky bars (the phone's action bar) sit at the bottom, not mid-page. */
async function shot(page, name, { fullPage = true } = {}) {
  await page.evaluate(() =>
    Promise.race([Promise.all(document.getAnimations().map((a) => a.finished.catch(() => {}))), new Promise((r) => setTimeout(r, 600))]),
  );
  await axAudit(page, name);
  const path = join(ARTIFACTS, `${name}.png`);
  if (!fullPage) await page.screenshot({ path });
  else {
    await page.evaluate(() => window.scrollTo(0, 0));
    const vp = page.viewportSize();
    const height = Math.min(8000, await page.evaluate(() => document.documentElement.scrollHeight));
    if (height > vp.height) await page.setViewportSize({ width: vp.width, height });
    try {
      await page.screenshot({ path, fullPage: true });
    } finally {
      if (height > vp.height) await page.setViewportSize(vp);
    }
  }
  log(`screenshot ${name}.png`);
}

/** What the page lets its player do now (null: nothing, wait). */
function detect() {
  if (document.querySelector(".gameover")) return "over";
  if (document.querySelector(".toast")) return "toast";
  if (!document.querySelector(".room")) return null;
  const picks = [...document.querySelectorAll("button.pick")];
  if (picks.length) {
    const on = picks.filter((b) => b.getAttribute("aria-pressed") === "true").length;
    const confirm = document.querySelector(".chars .actionbar button.primary");
    return on < 4 || (confirm && !confirm.disabled) ? "chars" : null;
  }
  const dlg = document.querySelector('[role="dialog"]');
  if (dlg) {
    const radios = [...dlg.querySelectorAll('input[type="radio"]')];
    const confirm = dlg.querySelector("button.primary");
    if (radios.length && (!radios.some((r) => r.checked) || (confirm && !confirm.disabled))) return "dialog";
    // a choice made on the cards (IG-88: the card to discard, then the one to put on top)
    const pairs = [...dlg.querySelectorAll(".pair-btn")].filter((b) => !b.disabled);
    if (pairs.length || (dlg.querySelector(".pair-choice") && confirm && !confirm.disabled)) return "dialog";
    return null;
  }
  if ([...document.querySelectorAll("button.strategy")].some((b) => !b.disabled)) return "strategy";
  if ([...document.querySelectorAll(".table .actionbar button, .table .card-btn:not(.target-btn)")].some((b) => !b.disabled)) return "struggle";
  return null;
}

/** Marks the n-th (of the enabled controls matching `sel`) with a unique attribute; returns its selector. */
async function markControl(page, sel, r, tag) {
  return page.evaluate(
    ({ sel, r, tag }) => {
      const els = [...document.querySelectorAll(sel)].filter((b) => !b.disabled);
      if (!els.length) return null;
      const el = els[Math.floor(r * els.length)];
      el.setAttribute("data-e2e", tag);
      const text = el.getAttribute("aria-label") || (el.matches("input") ? [...(el.labels ?? [])].map((l) => l.textContent).join(" ") : el.textContent) || "";
      return { selector: `[data-e2e="${tag}"]`, label: text.trim().slice(0, 60), n: els.length, radio: el.matches('input[type="radio"]') };
    },
    { sel, r, tag },
  );
}

// ---- keyboard: Tab / Shift+Tab until document.activeElement is the control, then Enter / Space / arrows
const MAX_TABS = 150;

/** Where the focus is relative to the first element matching `sel`: "here", "gone" (no such enabled
 *  element: the view moved on), or which way to Tab ("fwd" / "back", by document order from the
 *  focused element, or from the last focused one when focus fell back to <body>). */
function focusWhere({ sel, label }) {
  const el = document.querySelector(sel);
  if (!el || el.disabled) return { st: "gone" };
  const a = document.activeElement;
  const desc = (e) => (e ? (window.__audit?.describe?.(e) ?? e.tagName) : "nothing");
  if (a && a.matches(sel)) {
    const now = (a.getAttribute("aria-label") || a.textContent || "").trim().slice(0, 60);
    return label !== undefined && now !== label ? { st: "gone" } : { st: "here" };
  }
  const from = a && a !== document.body && a !== document.documentElement ? a : window.__e2eLastFocus?.isConnected ? window.__e2eLastFocus : null;
  const st = from && from.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_PRECEDING ? "back" : "fwd";
  return { st, active: desc(a) };
}

/** Tabs to the control (bounded); true when it has the focus, false when it went away meanwhile. */
async function keyTo(P, sel, what, label) {
  const t = Date.now();
  let last = null;
  for (let i = 0; ; i++) {
    const w = await P.page.evaluate(focusWhere, { sel, label });
    if (w.st === "here" || w.st === "gone") {
      P.kb.walks++;
      P.kb.presses += i;
      P.kb.ms += Date.now() - t;
      P.kb.longest = Math.max(P.kb.longest, i);
      return w.st === "here";
    }
    if (i >= MAX_TABS) {
      await shot(P.page, `stuck-keyboard-${P.name.split("(")[0]}`, { fullPage: false }).catch(() => {});
      throw new Error(`${P.name}: keyboard: the control "${what}" (${sel}) was not reached with ${MAX_TABS} Tab / Shift+Tab presses; focus is on ${w.active} (went ${last})`);
    }
    last = w.st;
    await P.page.keyboard.press(w.st === "back" ? "Shift+Tab" : "Tab");
  }
}

/** A radio button by keyboard: Tab into its group (focus lands on the checked radio, or the first /
 *  last one when none is checked), arrow keys to move to it (which also checks it), Space when it
 *  has the focus but is not checked yet. */
async function keyRadio(P, sel, what) {
  const name = await P.page.$eval(sel, (el) => el.name).catch(() => null);
  if (!name) return false;
  const group = `input[type="radio"][name="${name}"]`;
  if (!(await keyTo(P, group, `the radio group "${name}"`))) return false;
  let s;
  for (let i = 0; i < 2 * (s?.n ?? 10) + 5; i++) {
    s = await P.page.evaluate(
      ({ sel, group }) => {
        const radios = [...document.querySelectorAll(group)];
        const target = document.querySelector(sel);
        if (!target) return null;
        return { at: radios.indexOf(document.activeElement), to: radios.indexOf(target), checked: target.checked, n: radios.length };
      },
      { sel, group },
    );
    if (!s || s.at < 0) return false;
    if (s.at === s.to) {
      if (s.checked) return true;
      await P.page.keyboard.press("Space");
      P.kb.presses++;
      continue;
    }
    await P.page.keyboard.press(s.at < s.to ? "ArrowDown" : "ArrowUp");
    P.kb.presses++;
  }
  throw new Error(`${P.name}: keyboard: could not check the radio button "${what}" (${sel}) with the arrow keys / Space: ${JSON.stringify(s)}`);
}

/** Activates a marked control the way the player's device does: keyboard (Enter on a button, arrows /
 *  Space on a radio) or touch (tap; a radio by tapping its label, the 44 px target). */
async function activate(P, m) {
  try {
    if (P.input === "keyboard") {
      if (m.radio) return await keyRadio(P, m.selector, m.label);
      if (!(await keyTo(P, m.selector, m.label, m.label))) return false;
      await P.page.keyboard.press("Enter");
      P.kb.presses++;
      return true;
    }
    if (P.input === "touch") {
      await P.page.tap(m.radio ? `label:has(> ${m.selector})` : m.selector, { timeout: 3000 });
      return true;
    }
    await P.page.click(m.selector, { timeout: 3000 });
    return true;
  } catch (e) {
    if (/keyboard:/.test(e.message)) throw e;
    const calls = e.message.split("\n").filter((l) => /intercepts|not enabled|not visible|not stable|detached|retrying/.test(l)).slice(-3).map((l) => l.trim());
    log(`${P.name}: "${m.label}" not activated (${e.message.split("\n")[0]}${calls.length ? "; " + calls.join("; ") : ""}); the view moved on, deciding again`);
    return false;
  }
}

let tagCounter = 0;
/** Picks one of the enabled controls matching `sel` at random and activates it. With `sends`, it
 *  must send an action: waits for the action's answer (or gives up when no action frame left). */
async function useOne(P, sel, rng, { sends = true } = {}) {
  const m = await markControl(P.page, sel, rng(), `c${++tagCounter}`);
  if (!m) return null;
  const sentBefore = P.sent;
  const answer = sends ? actionAnswer(P) : null;
  if (!(await activate(P, m))) {
    answer?.cancel();
    return null;
  }
  if (!sends) return m;
  try {
    await until(() => P.sent > sentBefore, "the action frame", 2000);
  } catch {
    answer.cancel();
    log(`${P.name}: "${m.label}" sent no action (the view moved on), deciding again`);
    return null;
  }
  P.actions++;
  return { ...m, result: await answer };
}

// ---------------------------------------------------------------- the test
test("a keyboard-only player and a phone player play a whole game; the spectator sees nothing secret; every render is accessible", { timeout: 290_000 }, async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  for (const f of readdirSync(ARTIFACTS)) if (f.endsWith(".png")) rmSync(join(ARTIFACTS, f), { force: true }); // keep run.sh's server.log
  log(`seed ${SEED}, deal seed ${DEAL_SEED} (E2E_SEED, E2E_DEAL_SEED); chromium ${CHROMIUM}`);
  assert.equal(CHARACTERS.length, 16, "16 characters in cards.json");
  for (const [l, w] of Object.entries(STATE_WORDS)) assert.ok(w.ready && w.exhausted, `card state words read for ${l}: ${JSON.stringify(w)}`);
  const server = await startServer();
  const base = server.base;
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    // playwright-core gives every launch a fresh temporary user data dir (removed on close)
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  const cleanup = async () => {
    await browser.close().catch(() => {});
    await server.stop();
  };
  const PHONE = { width: 375, height: 812 };
  try {
    const desktop = { viewport: DESKTOP_SIZES[0], locale: "en-US", baseURL: base };
    const phone = { viewport: PHONE, deviceScaleFactor: 2, isMobile: true, hasTouch: true, locale: "en-US", baseURL: base };
    const [ctxA, ctxB, ctxS] = await Promise.all([browser.newContext(desktop), browser.newContext(phone), browser.newContext(desktop)]);
    await ctxA.addInitScript(auditor, { words: STATE_WORDS, width: null });
    await ctxB.addInitScript(auditor, { words: STATE_WORDS, width: PHONE.width });
    await ctxS.addInitScript(auditor, { words: STATE_WORDS, width: null });
    for (const ctx of [ctxA, ctxB, ctxS]) await ctx.addInitScript(textAudit);
    const A = track(await ctxA.newPage(), "rebel(creator)");
    const B = track(await ctxB.newPage(), "imperial(guest)");
    const specPage = await ctxS.newPage();
    await specPage.addInitScript(spectatorSpy, NAME_FORMS);
    const S = track(specPage, "spectator");
    A.input = "keyboard";
    B.input = "touch";
    S.input = "none";
    A.kb = { presses: 0, walks: 0, ms: 0, longest: 0 };
    for (const P of [A, B, S]) P.page.setDefaultTimeout(STEP_TIMEOUT_MS);
    const tag = (P) => P.name.split("(")[0];

    // every update / welcome frame a page receives: audit its DOM once the render settled (the
    // auditor also runs after every render by itself)
    for (const P of [A, B, S]) {
      P.waiters.add((m) => {
        if (m.type === "update" || m.type === "welcome") {
          P.page.evaluate(() => new Promise((r) => setTimeout(r, 0)).then(() => window.__audit?.run("frame"))).catch(() => {});
        }
      });
    }

    // ---- 1. create the room by keyboard (Rebel, full game, a friend, spectators allowed)
    await A.page.goto("/");
    await A.page.waitForSelector("form.panel");
    assert.ok(await keyTo(A, "input#create-name", "Your name"), "landing: the name field reached by Tab");
    await A.page.keyboard.type(CREATOR_NAME);
    for (const [name, value] of [["side", "rebel"], ["mode", "full"], ["opponent", "friend"], ["spectators", "anyone_with_link"]]) {
      assert.ok(await keyRadio(A, `input[name="${name}"][value="${value}"]`, `${name}: ${value}`), `landing: ${name} = ${value} by keyboard`);
    }
    await shot(A.page, "00-landing");
    await fits(A.page, landingFits, null, `landing ${A.page.viewportSize().width}×${A.page.viewportSize().height}`);
    assert.ok(await keyTo(A, "form.panel button.primary[type=submit]", "Create room"), "landing: Create room reached by Tab");
    await A.page.keyboard.press("Enter");
    await A.page.waitForURL(/\/r\/[A-Za-z0-9]+$/);
    const code = new URL(A.page.url()).pathname.split("/")[2];
    await A.page.waitForSelector(".lobby .copyfield input");
    const [invite, watch] = await A.page.$$eval(".lobby .copyfield input", (els) => els.map((e) => e.value));
    assert.match(invite, new RegExp(`/r/${code}/join#.+`), "invite link shown in the lobby");
    assert.match(watch, new RegExp(`/r/${code}/watch$`), "watch link shown in the lobby");
    const joinCode = (await A.page.textContent(".lobby .join-code .join-digits")).trim();
    assert.match(joinCode, /^\d{6}$/, "the creator sees the six-digit join code beside the invite link");
    await A.page.waitForFunction(() => document.querySelector(".room")?.classList.contains("rebel"));
    log(`room ${code} created by keyboard (${A.kb.presses} key presses); invite ${invite}`);
    await shot(A.page, "01-lobby");
    await axeEverywhere(A.page, "lobby", [AXE_DESKTOP, AXE_PHONE]);

    // ---- spectator first (it sees the lobby, then everything), then the guest joins
    await S.page.goto(watch);
    await S.page.waitForSelector(".room.spectator");
    await shot(S.page, "01-lobby-spectator");
    // the oracle must catch a leak: plant a hidden character's name, expect a violation, remove it
    const planted = await S.page.evaluate(async () => {
      const st = window.__evr;
      const span = document.createElement("span");
      span.textContent = "Yoda";
      const checks = st.checks;
      document.body.appendChild(span);
      for (let i = 0; i < 2000 && st.checks === checks; i++) await new Promise((r) => setTimeout(r, 10));
      const caught = st.violations.length;
      span.remove();
      const after = st.checks;
      for (let i = 0; i < 2000 && st.checks === after; i++) await new Promise((r) => setTimeout(r, 10));
      st.violations.length = 0;
      delete st.firstShown.Yoda;
      return caught;
    });
    assert.ok(planted > 0, "the spectator oracle flags a planted hidden name");
    log("spectator oracle self-check: a planted hidden name is flagged");
    {
      // The spectator knows the room code (its header, its watch link) but not the join code: with
      // the code alone, or a wrong join code, the landing page seats nobody; neither does the API.
      const shown = (await S.page.textContent("header.topbar .code")).replace(/^Room\s+/, "").trim();
      assert.equal(shown.replace("-", ""), code, "the spectator's header shows the room code");
      const thief = await ctxS.newPage();
      await thief.goto(base + "/");
      await thief.fill("input#code", shown);
      await thief.press("input#code", "Enter");
      const ask = await thief.waitForSelector(".landing p.error", { timeout: STEP_TIMEOUT_MS });
      assert.match(await ask.textContent(), /join code/, "the room code alone asks for the join code");
      const wrong = joinCode.slice(0, 5) + String((Number(joinCode[5]) + 1) % 10);
      await thief.fill("input#join-code", wrong);
      await thief.press("input#code", "Enter");
      await thief.waitForFunction(() => /not this room's/.test(document.querySelector(".landing p.error")?.textContent ?? ""));
      assert.equal(new URL(thief.url()).pathname, "/", "no seat: the page stays on the landing page");
      const api = await thief.evaluate(async (code) => {
        const post = (body) => fetch(`/api/rooms/${code}/join`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
        const noSecret = await post({});
        const nullInvite = await post({ invite: null });
        const status = await (await fetch(`/api/rooms/${code}`)).json();
        return { noSecret: [noSecret.status, (await noSecret.json()).code], nullInvite: [nullInvite.status, (await nullInvite.json()).code], free: status.seat_free, tokens: Object.keys(localStorage).filter((k) => k.startsWith("evr.token.")) };
      }, code);
      assert.deepEqual(api, { noSecret: [400, "bad_message"], nullInvite: [400, "bad_message"], free: true, tokens: [] }, "the API seats nobody with the room code alone");
      await thief.close();
      log("spectator: the room code alone and a wrong join code took no seat (landing page and API)");
    }
    // The phone's player joins by the room code and the join code, typed as a person would: first a
    // code of no room (the page must say so), then the real one in lower case without its dash,
    // with O for 0 and l for 1, the join code with a space, and a name — it must take the free seat.
    await B.page.goto(base + "/");
    await B.page.waitForSelector("input#code");
    await fits(B.page, landingFits, true, "landing phone");
    await B.page.fill("input#code", "zzzz-zzzz");
    await B.page.press("input#code", "Enter");
    const unknown = await B.page.waitForSelector(".landing p.error", { timeout: STEP_TIMEOUT_MS });
    assert.match(await unknown.textContent(), /does not exist/, "an unknown room code says so");
    await B.page.fill("input#code", code.toLowerCase().replace(/0/g, "o").replace(/1/g, "l"));
    await B.page.fill("input#join-code", `${joinCode.slice(0, 3)} ${joinCode.slice(3)}`);
    await B.page.fill("input#enter-name", GUEST_NAME);
    await B.page.press("input#code", "Enter");
    // the overflow check must catch an overflow on the phone: on the room page, plant a wide element
    await B.page.waitForURL(new RegExp(`/r/${code}$`));
    await B.page.waitForFunction(() => document.querySelector(".room")?.classList.contains("imperial"));
    const layout = await B.page.evaluate(async () => {
      // a 600 px wide element, an unnamed button, an exhausted card without its text label
      const el = document.createElement("div");
      el.className = "e2e-planted-wide";
      el.style.cssText = "width: 600px; height: 4px";
      el.innerHTML = '<button type="button" class="e2e-planted-unnamed"><span aria-hidden="true">✦</span></button>' +
        '<div class="playarea"><div class="card-slot" data-exhausted="true"><div class="card exhausted" aria-label="Planted"><span class="name">Planted</span></div></div></div>' +
        '<ol class="e2e-planted-list" start="100"><li>planted</li></ol>';
      // styled through the DOM: the page's policy refuses style attributes written as markup
      el.querySelector(".e2e-planted-list").style.cssText = "overflow-y: auto; padding-left: 1em";
      const n = window.__audit.problems.length;
      document.body.appendChild(el);
      // until the last check to report has (the text checks skip renders with a movement running)
      const listFlagged = () => window.__audit.problems.slice(n).some((p) => p.detail.includes("list number"));
      for (let i = 0; i < 3000 && !listFlagged(); i++) await new Promise((r) => setTimeout(r, 10));
      const caught = window.__audit.problems.slice(n);
      el.remove();
      await new Promise((r) => setTimeout(r, 20));
      window.__audit.problems.length = n;
      for (const k of Object.keys(window.__audit.index)) if (window.__audit.index[k] >= n) delete window.__audit.index[k];
      return { caught, iw: window.innerWidth, cw: document.documentElement.clientWidth };
    });
    assert.ok(layout.caught.some((p) => p.kind === "overflow" && p.detail.includes("e2e-planted-wide")), `the overflow check flags a planted 600 px element on the phone: ${JSON.stringify(layout.caught)}`);
    assert.ok(layout.caught.some((p) => p.kind === "unnamed" && p.detail.includes("e2e-planted-unnamed")), `the name check flags a planted unnamed button: ${JSON.stringify(layout.caught)}`);
    assert.ok(layout.caught.some((p) => p.kind === "state" && p.detail.includes("Planted")), `the card state check flags a planted exhausted card without a text label: ${JSON.stringify(layout.caught)}`);
    assert.ok(layout.caught.some((p) => p.kind === "clipped" && p.detail.includes('list number "100."')), `the text check flags a list number wider than its room: ${JSON.stringify(layout.caught)}`);
    assert.equal(layout.cw, PHONE.width, "the phone's layout viewport is 375 px (meta viewport width=device-width)");
    log("phone: an unknown code is refused; the typed room code and join code took the free seat");
    log(`phone: layout viewport ${layout.cw} px; auditor self-check: a planted 600 px element, unnamed button, unlabelled exhausted card and clipped list number are flagged`);
    await until(() => B.you && S.you, "the welcome frames of the guest and the spectator");
    assert.deepEqual(B.you, { role: "seat", faction: "imperial" }, "the guest took the free (Imperial) seat");
    assert.deepEqual(S.you, { role: "spectator" });
    await Promise.all([A, B].map((P) => P.page.waitForSelector("button.pick")));
    await S.page.waitForFunction(() => document.body.textContent.includes("choosing their characters"));
    // both names reach every page, as text
    for (const P of [A, B, S]) {
      await until(() => P.room?.names?.[0] === CREATOR_NAME && P.room?.names?.[1] === GUEST_NAME, `${P.name}: the names in room.names`);
    }
    // (the table's strips show each name in a <bdi>: isolated without marks in the text)
    await S.page.waitForFunction(([a, b]) => document.body.textContent.includes(a) && document.body.textContent.includes(b), [`${CREATOR_NAME} (Rebel)`, `${GUEST_NAME} (Imperial)`]);
    assert.equal(await S.page.$("main img"), null, "the markup in a name is shown as text");
    log("both seated under their names; character choice");
    {
      // The room code typed by a person (lower case, grouped) on the landing page, with both seats
      // taken: the page offers to watch instead of taking a seat.
      const typer = await ctxS.newPage();
      await typer.goto(base + "/");
      await typer.fill("input#code", `${code.slice(0, 4)}-${code.slice(4)}`.toLowerCase());
      await typer.press("input#code", "Enter");
      await typer.waitForSelector(`.notice a[href="/r/${code}/watch"]`, { timeout: STEP_TIMEOUT_MS });
      await typer.close();
      log("a typed room code with both seats taken offers to watch");
    }

    // ---- chat at the table: the phone player taps a quick phrase (everyone reads it); the spectator
    // writes under a name, with markup in the message (it must show as text and never run); the
    // players do not read the spectators' chat while the game is played; the rebel types by keyboard
    const SPECTATOR_SAYS = '<img src=x onerror="window.__pwned=1"><b>gg</b> I saw it all';
    // on the wire: when a seat's socket first carries the spectator's words, its game must be over
    for (const P of [A, B]) {
      P.waiters.add((m) => {
        if (m.type === "chat" && JSON.stringify(m).includes("I saw it all")) P.spectatorChatAfterTheGame ??= !!P.lastView?.outcome;
      });
    }
    for (const P of [A, B, S]) await P.page.waitForSelector(".chat .chat-phrases button");
    const phrase = B.page.locator(".chat-phrases button", { hasText: "Good luck!" });
    await phrase.scrollIntoViewIfNeeded();
    await phrase.tap();
    for (const P of [A, B, S]) await P.page.waitForFunction(() => document.querySelector(".chat-msg.imperial")?.textContent?.includes("Good luck!"));
    await S.page.fill(".chat-name input", "Ana");
    await S.page.fill(".chat-draft input", SPECTATOR_SAYS);
    await S.page.click(".chat-form button[type=submit]");
    await S.page.waitForFunction((t) => document.querySelector(".chat-list")?.textContent?.includes(t), SPECTATOR_SAYS);
    assert.equal(await S.page.$(".chat-list img, .chat-list b"), null, "the spectator's markup shows as text");
    assert.ok(await keyTo(A, ".chat-draft input", "the chat's message field"), "the chat's field is reachable by keyboard");
    await A.page.keyboard.type("Hello from the Rebel");
    await A.page.keyboard.press("Enter");
    for (const P of [A, B, S]) await P.page.waitForFunction(() => document.querySelector(".chat-list")?.textContent?.includes("Hello from the Rebel"));
    for (const P of [A, B]) {
      const text = await P.page.textContent(".chat-list");
      assert.ok(!text.includes("Ana") && !text.includes("I saw it all"), `${P.name}: the spectators' chat is not shown during the game: ${text}`);
    }
    assert.equal(await S.page.evaluate(() => window.__pwned), undefined, "the markup never ran");
    log("chat: a quick phrase (tap), a spectator's message with markup (shown as text, kept from the players), the rebel's typed line (keyboard)");

    // ---- 2. play: the rebel by keyboard, the imperial by tapping, concurrently
    const deadline = Date.now() + GAME_TIMEOUT_MS;
    const moments = new Set();
    const refusals = [];
    let reloaded = false;
    let moved = null;
    let langSwitched = false;
    const detailChecked = { [A.name]: false, [B.name]: false };

    const moment = async (key, fn) => {
      if (moments.has(key)) return;
      moments.add(key);
      await fn();
    };

    async function chooseCharacters(P, rng) {
      const sfx = P === B ? "-phone" : "";
      for (let attempt = 0; attempt < 40; attempt++) {
        // unpick whatever is picked (e.g. after a refused confirm), then pick 4 at random
        for (let k = 0; k < 4; k++) {
          const m = await markControl(P.page, 'button.pick[aria-pressed="true"]', 0, `u${++tagCounter}`);
          if (!m) break;
          await activate(P, m);
        }
        await P.page.waitForFunction(() => !document.querySelector('button.pick[aria-pressed="true"]'));
        const names = await P.page.$$eval("button.pick .name", (els) => els.map((e) => e.textContent));
        const order = names.map((_, i) => i);
        for (let i = order.length - 1; i > 0; i--) {
          const j = pickIndex(rng, i + 1);
          [order[i], order[j]] = [order[j], order[i]];
        }
        const chosen = order.slice(0, 4);
        for (const [k, i] of chosen.entries()) {
          const m = await P.page.evaluate(
            ({ i, tag }) => {
              const el = document.querySelectorAll("button.pick")[i];
              el.setAttribute("data-e2e", tag);
              return { selector: `[data-e2e="${tag}"]`, label: (el.getAttribute("aria-label") || el.textContent || "").trim().slice(0, 60), radio: false };
            },
            { i, tag: `p${++tagCounter}` },
          );
          assert.ok(await activate(P, m), `${P.name}: character ${names[i]} picked`);
          await P.page.waitForFunction((n) => document.querySelectorAll('button.pick[aria-pressed="true"]').length === n, k + 1);
        }
        const ok = await P.page.$eval(".chars .actionbar button.primary", (b) => !b.disabled);
        if (!ok) continue; // not a legal set: choose again
        const chosenNames = chosen.map((i) => fromLocal(names[i]));
        assert.ok(chosenNames.every(Boolean), `${P.name}: chosen names recognised: ${chosen.map((i) => names[i])}`);
        await moment("chars-" + P.name, () => shotEverywhere(P, `02-characters-${tag(P)}`, "characters"));
        await moment("chars-spectator", () => shot(S.page, "02-characters-spectator"));
        const r = await useOne(P, ".chars .actionbar button.primary", () => 0);
        if (!r?.result.ok) return; // refused (e.g. stale: the other side chose first) or not sent: decide again
        P.chosen = chosenNames;
        log(`${P.name}: characters locked in: ${P.chosen.join(", ")}`);
        return;
      }
      throw new Error(`${P.name}: no legal set of 4 characters found`);
    }

    /** A phase seen by a player: its screenshot in the three languages (and, on the desktop, at both
     *  sizes, the viewport only: what fits without scrolling), each audited (text clipped or drawn
     *  over text, the desktop's controls on screen); then the page's language and size go back. */
    async function shotEverywhere(P, name, axeScreen = null, axeSizes = [P === A ? AXE_DESKTOP : AXE_PHONE]) {
      const lang0 = await P.page.$eval("header.topbar .lang select", (s) => s.value);
      const size0 = P.page.viewportSize();
      const sizes = P === A ? DESKTOP_SIZES : [null];
      for (const l of ["en", "zh-Hant", "ja"]) {
        await P.page.selectOption("header.topbar .lang select", l);
        await P.page.waitForFunction((l) => document.documentElement.lang === l, l);
        for (const size of sizes) {
          if (size) await P.page.setViewportSize(size);
          await P.page.evaluate(() => window.__audit.run("shot"));
          if (P === A) await foldCheck(P, "shot");
          const where = `${name} ${l}${size ? ` ${size.width}×${size.height}` : " phone"}`;
          await fits(P.page, nameBreaks, null, where);
          await fits(P.page, repeatedSecretMarks, null, where);
          const dims = size ? `-${size.width}x${size.height}` : "-phone";
          await shot(P.page, `${name}-${l}${dims}`, { fullPage: !size });
        }
        if (axeScreen) await axeCheck(P.page, axeScreen, axeSizes);
      }
      await P.page.setViewportSize(size0);
      await P.page.selectOption("header.topbar .lang select", lang0);
      await P.page.waitForFunction((l) => document.documentElement.lang === l, lang0);
    }

    async function switchLanguage(P) {
      // 日本語 mid-game on the guest page: the UI text changes, play goes on in Japanese. (A native
      // <select> opens the platform picker, which a test cannot tap: selectOption sets it.)
      const before = await P.page.textContent("#plan-h");
      assert.equal(before, "Choose strategies");
      await P.page.selectOption("header.topbar .lang select", "ja");
      await P.page.waitForFunction(() => document.documentElement.lang === "ja");
      assert.equal(await P.page.textContent("#plan-h"), "戦略の選択", "strategy title in Japanese");
      assert.equal(
        (await P.page.textContent("header.topbar .code")).trim(),
        `ルーム ${code.slice(0, 4)}-${code.slice(4)}`,
        "header in Japanese, the code in its two groups",
      );
      await shot(P.page, "04-planning-ja-phone");
      log(`${P.name}: switched to 日本語 (strategy title "${before}" → "戦略の選択")`);
    }

    async function reloadMidGame(P) {
      const faction = P.you.faction;
      const welcomes = P.welcomes.length;
      const seqBefore = P.seq;
      const logLength = async () => Number((await P.page.textContent("details.log:not(.reference) > summary")).match(/\((\d+)\)/)?.[1]);
      const logBefore = await logLength();
      log(`${P.name}: reloading the page mid-game (seq ${seqBefore}, ${logBefore} log entries)`);
      await harvestAudit(P);
      await P.page.reload();
      await P.page.waitForFunction((f) => document.querySelector(".room")?.classList.contains(f), faction);
      await P.page.waitForSelector(".table, .planning, .chars, .gameover");
      await until(() => P.welcomes.length > welcomes, "a new welcome after the reload");
      assert.deepEqual(P.welcomes.at(-1), { role: "seat", faction }, "the reload resumed the same seat");
      assert.ok(P.seq >= seqBefore, "the resumed view is not older");
      const youMark = await P.page.$eval(`.room.${faction} .strip.${faction} h2, .room.${faction} .strategy-block.${faction} h3`, (e) => e.textContent);
      assert.match(youMark, /\(You\)/, `the ${faction} side is marked as you after the reload`);
      if (await P.page.$(`.strip.${faction}`)) {
        const strip = await P.page.textContent(`.strip.${faction}`);
        for (const c of P.chosen) assert.ok(strip.includes(c), `after the reload the seat still sees its own character ${c}: ${strip}`);
      }
      // the whole log of the game, not only the current round's (the opponent may have added to it)
      const logAfter = await logLength();
      assert.ok(logBefore > 10 && logAfter >= logBefore, `the log survives the reload: ${logBefore} entries before, ${logAfter} after`);
      await shot(P.page, "05-after-reload");
      log(`${P.name}: resumed as ${faction} at seq ${P.seq}`);
    }

    /** Mid-game the phone player moves their seat to another phone: "Another device" makes a link
     *  (and its QR code), a new browser context opens it and takes the seat, and the player plays on
     *  from there (both devices keep the seat: the old one follows the game too). The link then fails. */
    async function moveSeat(P) {
      const old = P.page;
      await harvestAudit(P);
      await old.tap(".move-seat > summary");
      const field = await old.waitForSelector(".move-seat-panel .copyfield input");
      await old.waitForSelector(".move-seat-panel svg.qr");
      const link = await field.inputValue();
      assert.match(link, new RegExp(`/r/${code}/take#[0-9a-f]{32}$`), "a one-time link with its secret in the fragment");
      const box = await old.$eval(".move-seat-panel", (e) => {
        const r = e.getBoundingClientRect();
        return { left: r.left, right: r.right };
      });
      assert.ok(box.left >= 0 && box.right <= PHONE.width, `the panel is on the phone's screen: ${JSON.stringify(box)}`);
      await old.evaluate(() => window.__audit?.run("move-seat"));
      await shot(old, "05-move-seat-phone", { fullPage: false });
      await old.tap(".move-seat > summary");
      const ctxC = await browser.newContext(phone);
      await ctxC.addInitScript(auditor, { words: STATE_WORDS, width: PHONE.width });
      await ctxC.addInitScript(textAudit);
      const page = await ctxC.newPage();
      page.setDefaultTimeout(STEP_TIMEOUT_MS);
      const welcomes = P.welcomes.length;
      const faction = P.you.faction;
      attach(P, page);
      await page.goto(link);
      await page.waitForURL(new RegExp(`/r/${code}$`));
      await page.waitForFunction((f) => document.querySelector(".room")?.classList.contains(f), faction);
      await until(() => P.welcomes.length > welcomes, "the moved seat's welcome");
      assert.deepEqual(P.welcomes.at(-1), { role: "seat", faction }, "the link seated the other device in the same seat");
      assert.equal(await page.evaluate(() => location.hash), "", "the secret left the address bar");
      // the player reads in Japanese on the new phone too
      await page.selectOption("header.topbar .lang select", "ja");
      await page.waitForFunction(() => document.documentElement.lang === "ja");
      // the link works once
      const again = await ctxS.newPage();
      await again.goto(link);
      await again.waitForFunction(() => /used already/.test(document.querySelector("[role=alert]")?.textContent ?? ""));
      assert.equal(await again.evaluate(() => Object.keys(localStorage).some((k) => k.startsWith("evr.token.")) ), false, "a used link seats nobody");
      await axeCheck(again, "take (link used)", [AXE_DESKTOP]);
      await again.close();
      moved = { old, seqAtMove: P.seq, actionsAtMove: P.actions };
      log(`${P.name}: the seat moved to another phone by its one-time link (seq ${P.seq}); the link then failed`);
    }

    /** The spectator at the struggle in the three languages (header <select>), then back to English. */
    async function spectatorLanguages() {
      await S.page.waitForSelector(".table .playarea .card-slot");
      for (const l of ["en", "zh-Hant", "ja"]) {
        await S.page.selectOption("header.topbar .lang select", l);
        await S.page.waitForFunction((l) => document.documentElement.lang === l, l);
        await shot(S.page, `06-struggle-spectator-${l}`);
        await axeCheck(S.page, "spectator (struggle)", [AXE_DESKTOP, AXE_PHONE]);
      }
      await S.page.selectOption("header.topbar .lang select", "en");
      await S.page.waitForFunction(() => document.documentElement.lang === "en");
      log("spectator: struggle shown in English, 繁體中文 and 日本語, back to English");
    }

    /** The card-details popover: the keyboard player focuses a card in play with Tab, the phone player
     *  taps one; `aside.card-detail` must show the card's name; Escape / a second tap closes it. */
    async function cardDetail(P, rng) {
      const m = await markControl(P.page, ".playarea .card-slot > .card", rng(), `d${++tagCounter}`);
      if (!m) return false;
      const name = (await P.page.textContent(`${m.selector} .name`)).trim();
      const sfx = P === B ? "-phone" : "";
      if (P.input === "keyboard") {
        if (!(await keyTo(P, m.selector, `the card ${name}`))) return false;
      } else {
        try {
          await P.page.tap(m.selector, { timeout: 3000 });
        } catch (e) {
          if (!(await P.page.$(m.selector))) return false; // the card left play meanwhile: another time
          throw e;
        }
      }
      const aside = P.page.locator("aside.card-detail");
      await aside.waitFor({ state: "visible", timeout: 5000 });
      const text = (await aside.textContent()).trim();
      assert.ok(text.includes(name), `${P.name}: the card details show the ${P.input === "keyboard" ? "focused" : "tapped"} card's name "${name}": ${text}`);
      const h = (await aside.locator("h2").textContent()).trim();
      assert.ok(h.startsWith(name), `${P.name}: the card details' heading is the card's name "${name}": ${h}`);
      assert.ok(await aside.locator(".power-full").isVisible(), `${P.name}: the card details show the power text`);
      await P.page.evaluate(() => window.__audit?.run("card-detail"));
      if (P.input === "keyboard") await fits(P.page, detailNearCard, m.selector, "card details (desktop)");
      await shot(P.page, `11-card-detail${sfx}`, { fullPage: false });
      if (P.input === "keyboard") {
        await P.page.keyboard.press("Escape");
        P.kb.presses++;
      } else {
        await P.page.tap(m.selector, { timeout: 5000 });
      }
      await aside.waitFor({ state: "detached", timeout: 5000 });
      log(`${P.name}: card details of "${name}" shown by ${P.input === "keyboard" ? "Tab focus" : "a tap"} and closed by ${P.input === "keyboard" ? "Escape" : "a second tap"}`);
      return true;
    }

    // Before each decision of the desktop player: its controls are on screen at the top of the page
    // and nothing covers them (the bar, a panel). Sizes alternate by round (DESKTOP_SIZES).
    let planningRounds = 0;
    // a pending choice may come to one player only: the first page that gets one is checked by axe
    // at both sizes, the other (if one comes) at its own
    let pendingAxed = 0;
    const foldSizes = new Set();
    /** the players' column's width by screen size at a struggle turn (a choice must not change it) */
    const boardWidths = new Map();
    async function foldCheck(P, kind) {
      if (P !== A) return;
      if (kind === "strategy") {
        const size = DESKTOP_SIZES[planningRounds++ % DESKTOP_SIZES.length];
        await P.page.setViewportSize(size);
      }
      const size = P.page.viewportSize();
      foldSizes.add(`${size.width}×${size.height}`);
      // a pending choice opens without moving the board: the players' column keeps its width
      const mainWidth = await P.page.evaluate(() => Math.round(document.querySelector(".table .board-main")?.getBoundingClientRect().width ?? 0));
      const key = `${size.width}×${size.height}`;
      if (mainWidth > 0 && kind === "struggle") boardWidths.set(key, mainWidth);
      if (mainWidth > 0 && kind === "dialog" && boardWidths.has(key) && boardWidths.get(key) !== mainWidth) {
        const p = `a pending choice re-flowed the board: the players' column went from ${boardWidths.get(key)} to ${mainWidth} px (${key})`;
        if (!FITS.some((f) => f.endsWith(p))) FITS.push(`[desktop dialog] ${p}`);
      }
      const found = await P.page.evaluate(foldProblems);
      if (found.length > 0 && !P.foldShot) {
        P.foldShot = true;
        await shot(P.page, `fold-problem-${kind}`, { fullPage: false }).catch(() => {});
      }
      for (const p of found) await P.page.evaluate(([p, k]) => window.__audit.add("fold", p, `${k}: ${p}`), [p, kind]);
    }

    async function playerLoop(P, rng) {
      const sfx = P === B ? "-phone" : "";
      for (;;) {
        if (Date.now() > deadline) throw new Error(`${P.name}: the game did not end within ${GAME_TIMEOUT_MS} ms`);
        if (P.pageErrors?.length) throw new Error(`${P.name}: page error: ${P.pageErrors.join("; ")}`);
        let kind;
        try {
          kind = await (await P.page.waitForFunction(detect, null, { polling: 50, timeout: STEP_TIMEOUT_MS })).jsonValue();
        } catch (e) {
          const text = await P.page.evaluate(() => document.body.innerText.slice(0, 1500)).catch(() => "?");
          await shot(P.page, `stuck-${tag(P)}`).catch(() => {});
          throw new Error(`${P.name}: nothing to do for ${STEP_TIMEOUT_MS} ms (seq ${P.seq}, phase ${P.lastView?.phase}); page:\n${text}`);
        }
        if (kind === "over") return;
        if (kind === "toast") {
          const text = await P.page.textContent(".toast").catch(() => "");
          refusals.push(`${P.name}: ${text}`);
          log(`${P.name}: refused action shown (${text?.trim()}); closing the toast, deciding again`);
          await useOne(P, ".toast button", () => 0, { sends: false });
          continue;
        }
        if (P === B && (kind === "strategy" || kind === "dialog")) {
          // the phone's decision (strategies, a pending choice) comes into view by itself, checked
          // before the test scrolls the page for its screenshots (polled for up to ~5 s: a busy
          // machine renders late, not wrongly)
          let left = [];
          for (let i = 0; i < 100; i++) {
            left = await P.page.evaluate(decisionInView, kind);
            if (left.length === 0) break;
            await P.page.waitForTimeout(50);
          }
          const where = kind === "dialog" ? `${P.lastView?.phase} ` : "planning ";
          // a choice gone before it could be checked (the page moved on: nothing to measure) is said,
          // not counted as a layout problem; the loop answers whatever comes next
          const gone = left.length === 1 && /^(dialog: no pending choice|planning: no strategy to choose)$/.test(left[0]);
          if (gone) log(`${P.name}: the ${kind === "dialog" ? "pending choice" : "strategy choice"} seen at seq ${P.seq} was gone before its fit was checked`);
          else for (const p of left) if (!FITS.some((f) => f.endsWith(p))) FITS.push(`[phone ${where}round ${P.lastView?.round}] ${p}`);
        }
        await foldCheck(P, kind);
        if (kind === "chars") {
          await chooseCharacters(P, rng);
          continue;
        }
        // the round's result (dominance), first time it shows on this page
        if (await P.page.$(".dominance")) await moment("dominance-" + P.name, () => shotEverywhere(P, `08-dominance-${tag(P)}`, "dominance"));
        // mid-game moments
        // reload at the rebel's first struggle turn of round 2: the log holds round 1 (the log of
        // the current round alone would not show a lost log)
        if (P === A && !reloaded && kind === "struggle" && P.lastView.round >= 2) {
          reloaded = true;
          await reloadMidGame(P);
          continue;
        }
        if (P === B && !moved && kind === "struggle" && P.lastView.round >= 2) {
          await moveSeat(P);
          continue;
        }
        if (P === B && !langSwitched && kind === "strategy") {
          langSwitched = true;
          await switchLanguage(P);
        }
        if (kind === "strategy") {
          await moment("planning-" + P.name, () => shotEverywhere(P, `03-planning-${tag(P)}`, "planning"));
          // Confirm before commit: selecting a strategy sends nothing; only its Confirm does.
          const sentBefore = P.sent;
          const picked = await useOne(P, "button.strategy", rng, { sends: false });
          if (!picked) continue;
          await P.page.waitForTimeout(150);
          assert.equal(P.sent, sentBefore, `${P.name}: selecting "${picked.label}" sent an action before Confirm`);
          await useOne(P, "button.strategy-confirm", () => 0);
          continue;
        }
        if (kind === "dialog") {
          await moment("pending-" + P.name, () => shotEverywhere(P, `07-pending-choice-${tag(P)}`, "pending choice", pendingAxed++ ? undefined : [AXE_DESKTOP, AXE_PHONE]));
          // a choice on the cards: a tap on a card's button at a time until Confirm is on
          if ((await P.page.$('[role="dialog"] .pair-choice')) && (await P.page.$('[role="dialog"] button.primary[disabled]'))) {
            await useOne(P, '[role="dialog"] .pair-btn', rng, { sends: false });
            continue;
          }
          const checked = await P.page.$$eval('[role="dialog"] input[type="radio"]', (rs) => rs.some((r) => r.checked));
          if (!checked && (await P.page.$('[role="dialog"] input[type="radio"]'))) {
            const m = await useOne(P, '[role="dialog"] input[type="radio"]', rng, { sends: false });
            if (!m) continue;
          }
          try {
            await P.page.waitForFunction(() => {
              const b = document.querySelector('[role="dialog"] button.primary');
              return !b || !b.disabled;
            }, null, { polling: 50, timeout: 5000 });
          } catch {
            continue;
          }
          await useOne(P, '[role="dialog"] button.primary', rng);
          continue;
        }
        if (kind === "struggle") {
          // the struggle screenshots once cards are in play (the spectator's in the three languages)
          if ((await P.page.$$(".playarea .card-slot")).length >= 2) {
            await moment("struggle-" + P.name, async () => {
              await shotEverywhere(P, `06-struggle-${tag(P)}`, "struggle");
              if (P === A) await spectatorLanguages();
            });
          }
          if (P === B) {
            await fits(P.page, reachableAboveBar, null, `phone struggle round ${P.lastView?.round}`);
            await fits(P.page, powerPreview, null, "phone struggle");
          }
          if (!detailChecked[P.name] && (await P.page.$(".playarea .card-slot > .card"))) detailChecked[P.name] = await cardDetail(P, rng);
          await useOne(P, ".table .actionbar button, .table .card-btn:not(.target-btn)", rng);
        }
      }
    }

    // spectator: check its DOM after every update frame it receives (plus after every render, in page)
    let specFrameChecks = 0;
    S.waiters.add((m) => {
      if (m.type === "update" || m.type === "welcome") {
        specFrameChecks++;
        S.page.evaluate(() => window.__evr.check("frame")).catch(() => {});
      }
    });

    await Promise.all([playerLoop(A, mulberry32(SEED)), playerLoop(B, mulberry32(SEED ^ 0x9e3779b9))]);
    log(`game over: ${A.actions} rebel (keyboard) and ${B.actions} imperial (tap) actions; final seq ${A.seq}; refused by the server: ${[...A.refused, ...B.refused].join(", ") || "none"}; toasts: ${refusals.length}`);
    log(`keyboard: ${A.kb.presses} key presses in ${A.kb.walks} Tab walks (longest ${A.kb.longest} presses), ${(A.kb.ms / 1000).toFixed(1)} s walking`);

    // ---- 3. assertions
    await S.page.waitForSelector(".gameover");
    for (const P of [A, B, S]) await until(() => P.lastView?.phase === "game_over", `${P.name}: the game_over view frame`);
    const outcome = A.lastView?.outcome;
    assert.ok(outcome, "the rebel page received a game_over view with an outcome");
    assert.equal(A.lastView.phase, "game_over");
    assert.deepEqual(B.lastView.outcome, outcome, "both seats received the same outcome");
    assert.deepEqual(S.lastView.outcome, outcome, "the spectator received the same outcome");
    const winner = A.room?.forfeit_winner ?? outcome.winner ?? null;
    // an independent spectator socket of our own: the server's result now
    const fresh = await A.page.evaluate(
      ([url, version]) =>
        new Promise((res, rej) => {
          const ws = new WebSocket(url);
          const timer = setTimeout(() => rej(new Error("no welcome on the check socket")), 10_000);
          ws.onopen = () => ws.send(JSON.stringify({ type: "hello", version, token: null, last_seq: null }));
          ws.onmessage = (ev) => {
            const m = JSON.parse(ev.data);
            if (m.type === "welcome") {
              clearTimeout(timer);
              ws.close();
              res({ phase: m.view.phase, outcome: m.view.outcome, forfeit: m.room.forfeit_winner });
            }
          };
          ws.onerror = () => rej(new Error("check socket failed"));
        }),
      [base.replace(/^http/, "ws") + "/ws/" + code, PROTOCOL_VERSION],
    );
    assert.equal(fresh.phase, "game_over");
    assert.deepEqual(fresh.outcome, outcome, "a fresh spectator socket reads the same outcome");
    log(`server result: winner ${winner ?? "none (draw)"}, reason ${outcome.reason}, VP ${outcome.vp.join("–")}`);

    const headline = async (P) => P.page.$eval(".gameover .headline", (e) => ({ text: e.textContent.trim(), cls: e.className }));
    const [hA, hB, hS] = await Promise.all([headline(A), headline(B), headline(S)]);
    const expect = {
      // rebel page in English, imperial page in Japanese, spectator in English
      A: winner === null ? "Draw" : winner === "rebel" ? "You win!" : "You lose",
      B: winner === null ? "引き分け" : winner === "imperial" ? "あなたの勝ち！" : "あなたの負け",
    };
    assert.equal(hA.text, expect.A, "the rebel's game-over headline matches the server's result");
    assert.equal(hB.text, expect.B, "the imperial's (日本語) game-over headline matches the server's result");
    if (winner !== null) {
      for (const h of [hA, hB, hS]) assert.ok(h.cls.split(/\s+/).includes(winner), `headline marked ${winner}: ${h.cls}`);
      const name = winner === "rebel" ? CREATOR_NAME : GUEST_NAME;
      assert.equal(hS.text, `\u2068${name}\u2069 wins`, "the spectator's headline names the winner by their name, as text, isolated");
    }
    // the desktop's game over: the result, the rematch and the reveal on the first screen (1280×800)
    await A.page.setViewportSize(DESKTOP_SIZES[0]);
    await fits(A.page, gameOverFits, null, "game over 1280×800");
    // the phone the seat moved from followed the game to its end as the same seat
    assert.ok(moved, "the phone player's seat moved to another device mid-game");
    assert.ok(B.actions > moved.actionsAtMove, "the moved seat played on the new device");
    await moved.old.waitForSelector(".gameover", { timeout: 10_000 });
    assert.equal(await moved.old.$eval(".gameover .headline", (e) => e.textContent.trim()), hB.text, "the old device shows the same result");
    await moved.old.close();
    // the game is over: the players now read what the spectator wrote, as text; the markup never ran
    for (const P of [A, B]) {
      await P.page.waitForFunction(() => document.querySelector(".chat-list")?.textContent?.includes("I saw it all"), null, { timeout: 5000 });
      assert.equal(await P.page.$(".chat-list img, .chat-list b"), null, `${P.name}: the spectator's markup shows as text`);
      assert.equal(await P.page.evaluate(() => window.__pwned), undefined, `${P.name}: the markup never ran`);
    }
    for (const P of [A, B]) assert.equal(P.spectatorChatAfterTheGame, true, `${P.name}: its socket got the spectators' chat only after the game`);
    const phoneChat = await B.page.textContent(".chat-list");
    assert.ok(phoneChat.includes("よろしくお願いします！"), `the quick phrase reads in the reader's own language (日本語): ${phoneChat}`);
    log("chat: after the game the players read the spectators' chat; the phrase reads in 日本語 on the phone");

    // provably fair shuffles: every page checked, in its own browser, that the seed and salt told at
    // the end open the commitment shown since the start (SHA-256(salt ‖ seed), WebCrypto)
    for (const P of [A, B, S]) {
      await P.page.waitForSelector(".gameover .fair-check.ok", { timeout: 5000 });
      const commitment = await P.page.$eval(".gameover .fair-values code", (c) => c.textContent);
      assert.match(commitment, /^[0-9a-f]{64}$/, `${P.name}: a 64-digit commitment`);
    }
    log("fair shuffles: the seed and salt told at the end open the commitment on all three pages");

    // ---- the replay page as a spectator, before anyone revealed the game: a new page in the
    // spectator's browser follows the archive's link; at every step, stepped by the keyboard, its DOM
    // names only characters that step's spectator view or the log so far names, and the replay names
    // no character the live spectator was never shown
    const replays = [];
    const openReplay = async (ctx, name) => {
      const R = track(await ctx.newPage(), name);
      R.page.setDefaultTimeout(STEP_TIMEOUT_MS);
      replays.push(R);
      return R;
    };
    const stepsOf = (R, eyes) =>
      R.page.waitForResponse((r) => r.url().includes("/games/1/steps") && r.url().includes(`eyes=${eyes}`) && r.ok()).then((r) => r.json());
    const RS = await openReplay(ctxS, "spectator-replay");
    await RS.page.goto(`/r/${code}/games`);
    await RS.page.waitForSelector(".archive-table a.watch-replay");
    await axeEverywhere(RS.page, "archive", [AXE_DESKTOP, AXE_PHONE]);
    const spectatorSteps = stepsOf(RS, "spectator");
    await RS.page.click(".archive-table a.watch-replay");
    await RS.page.waitForURL(new RegExp(`/r/${code}/games/1$`));
    const seen = await spectatorSteps;
    assert.equal(seen.viewer, "spectator");
    assert.equal(seen.your_faction, null, "the spectator's browser holds no seat token");
    await RS.page.waitForSelector(".replay-controls");
    assert.deepEqual(await RS.page.$$eval("input[name=replay-eyes]", (els) => els.map((e) => e.value)), ["spectator"], "a spectator is offered only the spectator's eyes before the reveal");
    const liveNames = new Set(await S.page.evaluate(() => [...window.__evr.ever]));
    const json = JSON.stringify(seen);
    const replayNames = NAME_FORMS.filter(([c]) => json.includes(c)).map(([c]) => c);
    assert.deepEqual(replayNames.filter((c) => !liveNames.has(c)), [], "the spectator's replay names no character the live spectator was never sent");
    const neverPublic = [...A.chosen, ...B.chosen].filter((c) => !liveNames.has(c));
    const replayLeaks = [];
    const lastStep = seen.steps.length - 1;
    for (let i = 0; i <= lastStep; i++) {
      if (i > 0) await RS.page.keyboard.press("ArrowRight");
      await RS.page.waitForFunction((n) => document.querySelector(".replay-slider")?.value === String(n), i);
      const allowed = JSON.stringify(seen.steps[i].view) + JSON.stringify(seen.steps.slice(0, i + 1).map((s) => s.log));
      const text = await RS.page.evaluate(() => {
        const r = document.body.cloneNode(true);
        // event effect paraphrases name characters ("Only Luke Skywalker and Darth Vader…"); an open card detail names its card
        for (const el of r.querySelectorAll(".reference, p.effect, .card-detail, script")) el.remove();
        return r.textContent ?? "";
      });
      for (const [c, forms] of NAME_FORMS) {
        if (forms.some((f) => text.includes(f)) && !allowed.includes(c)) replayLeaks.push(`step ${i}: ${c}`);
        if (neverPublic.includes(c) && forms.some((f) => text.includes(f))) replayLeaks.push(`step ${i}: ${c} was never public`);
      }
    }
    assert.deepEqual(replayLeaks.slice(0, 10), [], "the spectator's replay page shows no hidden character at any step");
    await RS.page.keyboard.press("Home");
    await RS.page.waitForFunction(() => document.querySelector(".replay-slider")?.value === "0");
    await RS.page.keyboard.press("End");
    await RS.page.waitForFunction((n) => document.querySelector(".replay-slider")?.value === String(n), lastStep);
    await shot(RS.page, "11-replay-spectator");
    await axeEverywhere(RS.page, "replay", [AXE_DESKTOP, AXE_PHONE]);
    log(`replay as a spectator: ${seen.steps.length} steps stepped by keyboard, no hidden character in the DOM (${neverPublic.length} chosen characters never became public)`);

    // the replay: no file until both players agree to reveal it (the keyboard player by Tab + Enter,
    // the phone player by a tap); then every page offers it, and the file the rebel downloads
    // verifies with `evr verify` (commitment, every action through the engine, the result)
    for (const P of [A, B, S]) assert.equal(await P.page.$(".gameover a[download]"), null, `${P.name}: no replay file before both agree`);
    assert.equal(await S.page.$(".gameover button.reveal-agree"), null, "the spectator has nothing to agree to");
    assert.ok(await keyTo(A, ".gameover button.reveal-agree", "Reveal everything in the replay"), "the reveal button is reachable by keyboard");
    await A.page.keyboard.press("Enter");
    await A.page.waitForSelector(".gameover .replay-panel [role=status]");
    assert.equal(await B.page.$(".gameover a[download]"), null, "one agreement is not enough");
    await B.page.tap(".gameover button.reveal-agree");
    for (const P of [A, B, S]) await P.page.waitForSelector(".gameover a[download]", { timeout: 5000 });
    // the room's games list it too, with its result and its replay file
    for (const P of [A, B, S]) {
      await P.page.waitForSelector(".archive-table tbody tr a[download]", { timeout: 5000 });
      const row = await P.page.textContent(".archive-table tbody tr");
      assert.ok(row.trim().startsWith("1"), `${P.name}: game 1 in the room's games: ${row}`);
    }
    assert.ok(await keyTo(A, ".gameover a[download]", "Download the replay file"), "the download link is reachable by keyboard");
    const [download] = await Promise.all([A.page.waitForEvent("download"), A.page.keyboard.press("Enter")]);
    const replayFile = join(ARTIFACTS, "replay.json");
    await download.saveAs(replayFile);
    const evrBin = join(REPO, "target/release/evr");
    assert.ok(existsSync(evrBin), `${evrBin} (run.sh builds it: cargo build --release -p evr-cli)`);
    const verified = spawnSync(evrBin, ["verify", replayFile], { encoding: "utf8" });
    assert.equal(verified.status, 0, `evr verify accepts the downloaded replay: ${verified.stdout}${verified.stderr}`);
    assert.match(verified.stdout, /^verified: /);
    log(`replay: revealed by both players, downloaded (${readFileSync(replayFile).length} bytes), ${verified.stdout.trim()}`);
    // ---- revealed: the rebel's browser (it holds the seat token) offers its own seat and
    // everything; the everything view shows both sides' chosen characters and both decks' order
    const RA = await openReplay(ctxA, "rebel-replay");
    await RA.page.goto(`/r/${code}`);
    await RA.page.waitForSelector(".gameover a.watch-replay");
    const firstSteps = stepsOf(RA, "spectator");
    await RA.page.click(".gameover a.watch-replay");
    const asRebel = await firstSteps;
    assert.equal(asRebel.your_faction, "rebel", "the rebel's token is recognised");
    assert.ok(asRebel.revealed, "both agreed");
    await RA.page.waitForSelector(".replay-controls");
    assert.deepEqual(await RA.page.$$eval("input[name=replay-eyes]", (els) => els.map((e) => e.value)), ["spectator", "seat", "everything"]);
    const everything = stepsOf(RA, "everything");
    await RA.page.check("input[name=replay-eyes][value=everything]");
    const all = await everything;
    assert.equal(all.viewer, "omniscient");
    await RA.page.click(".replay-controls button:last-child");
    await RA.page.waitForFunction((n) => document.querySelector(".replay-slider")?.value === String(n) && !!document.querySelector(".deck-order"), all.steps.length - 1);
    const strips = await RA.page.$$eval(".strip", (els) => els.map((e) => e.textContent ?? ""));
    for (const c of [...A.chosen, ...B.chosen]) assert.ok(strips.some((t) => t.includes(c)), `everything shows ${c}: ${strips.join(" | ")}`);
    assert.equal(await RA.page.locator(".deck-order").count(), 2, "both decks' order is shown");
    await shot(RA.page, "13-replay-everything");
    // the phone player's browser (日本語, 375 px): its own seat's eyes, then 繁體中文
    const RB = await openReplay(ctxB, "imperial-replay-phone");
    const phoneSteps = stepsOf(RB, "spectator");
    await RB.page.goto(`/r/${code}/games/1`);
    assert.equal((await phoneSteps).your_faction, "imperial");
    await RB.page.waitForSelector(".replay-controls");
    const seatSteps = stepsOf(RB, "seat");
    await RB.page.tap("input[name=replay-eyes][value=seat]");
    assert.deepEqual((await seatSteps).viewer, { seat: "imperial" });
    await RB.page.tap(".replay-controls button.step-forward");
    await RB.page.waitForFunction(() => document.querySelector(".replay-slider")?.value === "1");
    // the replay plays on by itself, one step at a time, until paused
    await RB.page.tap(".replay-controls button.play");
    await RB.page.waitForFunction(() => Number(document.querySelector(".replay-slider")?.value) >= 3, null, { timeout: 10_000 });
    await RB.page.tap(".replay-controls button.play");
    const paused = await RB.page.$eval(".replay-slider", (s) => s.value);
    await RB.page.waitForTimeout(1_200);
    assert.equal(await RB.page.$eval(".replay-slider", (s) => s.value), paused, "a paused replay stays where it is");
    // a round at a time: from where it paused to the first step of the next round
    const rounds = (await seatSteps).steps.map((s) => s.view.round);
    const from = Number(paused);
    const nextRound = rounds.findIndex((r, j) => j > from && r !== rounds[from]);
    await RB.page.tap(".replay-controls button.next-round");
    await RB.page.waitForFunction((n) => document.querySelector(".replay-slider")?.value === String(n), nextRound < 0 ? rounds.length - 1 : nextRound);
    await RB.page.tap(".replay-controls button.step-forward");
    await fits(RB.page, replayControlsFit, null, "replay phone");
    await shot(RB.page, "14-replay-seat-ja-phone");
    await RB.page.selectOption("header.topbar .lang select", "zh-Hant");
    await RB.page.waitForFunction(() => document.querySelector(".replay-where")?.textContent?.includes("步"));
    await shot(RB.page, "14-replay-seat-zh-Hant-phone");
    await RB.page.selectOption("header.topbar .lang select", "ja");
    log(`replay revealed: everything (${all.steps.length} steps) shows all ${A.chosen.length + B.chosen.length} chosen characters and both decks' order; the imperial's phone shows its own seat in 日本語 and 繁體中文`);
    await axeEverywhere(A.page, "game over", [AXE_DESKTOP]);
    await axeEverywhere(B.page, "game over", [AXE_PHONE]);
    await shot(A.page, "09-game-over-rebel");
    await shot(B.page, "09-game-over-imperial-ja-phone");
    await shot(S.page, "09-game-over-spectator");

    // language: switch the game-over page to 繁體中文, then back to English
    assert.equal(await B.page.textContent("#over-h"), "ゲーム終了");
    await B.page.selectOption("header.topbar .lang select", "zh-Hant");
    await B.page.waitForFunction(() => document.querySelector("#over-h")?.textContent === "遊戲結束");
    assert.ok((await B.page.textContent(".chat-list")).includes("祝好運！"), "the quick phrase reads in 繁體中文 too");
    await shot(B.page, "10-game-over-zh-Hant-phone");
    await B.page.selectOption("header.topbar .lang select", "en");
    await B.page.waitForFunction(() => document.querySelector("#over-h")?.textContent === "Game over");
    log("language: ja → zh-Hant (遊戲結束) → en (Game over) on the game-over page");

    // the Rules button opens the rules and card reference (its events table is wider than a phone:
    // it must scroll in its own box; the page audit checks the overflow on this render too)
    await B.page.tap("header.topbar .rules-link");
    await B.page.waitForFunction(() => document.querySelector("details#reference")?.open === true);
    await B.page.waitForTimeout(100);
    const rulesWidth = await B.page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(rulesWidth <= 375 + 1, `the open rules drawer fits the 375 px phone (scrollWidth ${rulesWidth})`);
    await shot(B.page, "12-rules-phone", { fullPage: false });
    await B.page.tap("details#reference > summary");
    await B.page.waitForFunction(() => document.querySelector("details#reference")?.open === false);

    // ---- the seat's devices, last (the old phone's browser then holds no seat): the old phone opens
    // the room again; the new phone lists the seat's devices, the old one connected, and signs it out
    // after a warning; the old phone is told at once that its seat link no longer works
    {
      const old = await ctxB.newPage();
      await old.goto(`/r/${code}`);
      await old.waitForSelector(".gameover");
      await B.page.tap(".move-seat > summary");
      await B.page.waitForSelector(".move-seat-panel .devices li:nth-child(2)");
      const devices = await B.page.$$eval(".move-seat-panel .devices li", (l) => l.map((e) => e.textContent));
      assert.deepEqual(
        devices.map((d) => [d.startsWith("This device"), d.includes("connected now")]),
        [[false, true], [true, false]],
        `the old phone (connected) and this one: ${devices}`,
      );
      await B.page.tap(".move-seat-panel .devices button");
      await B.page.tap(".move-seat-panel .devices button.sign-out");
      await B.page.waitForSelector(".move-seat-panel .devices [role=status]");
      assert.equal(await B.page.$$eval(".move-seat-panel .devices li", (l) => l.length), 1, "this device alone");
      await axeCheck(B.page, "move-seat (devices)", [AXE_PHONE]);
      await shot(B.page, "15-devices-signed-out-phone", { fullPage: false });
      await B.page.tap(".move-seat > summary");
      // bad_token's page: the seat is gone from the old phone, watching is offered
      await old.waitForSelector(`[role=alert] a[href="/r/${code}/watch"]`);
      await old.close();
      log(`${B.name}: the new phone signed the old one out of the seat (its list showed it connected)`);
    }

    // ---- axe on the pages of their own: the landing page (the rebel's browser lists its room), an
    // invite link's name form (in the spectator's browser: it holds no seat), the client's page for an
    // address it does not know
    {
      const mine = await ctxA.newPage();
      await mine.goto("/");
      await mine.waitForSelector(".landing form.panel");
      await axeEverywhere(mine, "landing", [AXE_DESKTOP, AXE_PHONE]);
      await mine.close();
      const other = await ctxS.newPage();
      await other.goto(`/r/${code}/join#0123456789abcdef0123456789abcdef`);
      await other.waitForSelector("main h1");
      await axeCheck(other, "join", [AXE_DESKTOP, AXE_PHONE]);
      await other.goto(`/r/${code}/no-such-page`); // the client's own 404 (the server serves it the app)
      await other.waitForSelector("main h1");
      await axeCheck(other, "404", [AXE_DESKTOP, AXE_PHONE]);
      await other.close();
    }

    // spectator oracle
    await S.page.evaluate(() => window.__evr.check("final"));
    const spy = await S.page.evaluate(() => {
      const st = window.__evr;
      return { frames: st.frames, views: st.views, checks: st.checks, violations: st.violations, firstShown: st.firstShown, ever: [...st.ever] };
    });
    log(`spectator: ${spy.frames} frames, ${spy.views} views, ${spy.checks} DOM checks (${specFrameChecks} after update frames)`);
    assert.deepEqual(spy.violations.slice(0, 20), [], "the spectator page showed only characters its own view made public");
    assert.ok(spy.checks > 20 && spy.views > 20, "the spectator page was checked throughout the game");
    for (const P of [A, B]) {
      assert.equal(P.chosen.length, 4, `${P.name} chose 4 characters`);
      for (const c of P.chosen) {
        const f = spy.firstShown[c];
        if (f) assert.ok(f.known && f.phase !== "character_choice", `${c} (chosen by ${P.name}) appeared on the spectator page before it was public: ${JSON.stringify(f)}`);
      }
    }
    const revealed = [...A.chosen, ...B.chosen].filter((c) => spy.firstShown[c]);
    log(`chosen characters that became public and showed on the spectator page: ${revealed.join(", ") || "none"}`);

    // the page audits: accessible names, ready/exhausted as text, no horizontal overflow
    for (const R of replays) {
      await R.page.evaluate(() => window.__audit.run("final"));
      await harvestAudit(R);
      const found = (R.audit?.problems ?? []).filter((p) => ["unnamed", "overflow", "clipped", "overlap", "auditor"].includes(p.kind));
      assert.deepEqual(found.map((p) => `[${p.kind} ${p.where}] ${p.detail}`), [], `${R.name}: the replay page passes the page audits`);
      assert.deepEqual(R.pageErrors ?? [], [], `${R.name}: no page errors`);
    }
    for (const P of [A, B, S]) {
      await P.page.evaluate(() => window.__audit.run("final"));
      await harvestAudit(P);
      log(`${P.name}: ${P.audit.checks} audited renders; states ${Object.keys(P.audit.states).join(", ")}; cards in play seen ${P.audit.readyCards} ready / ${P.audit.exhaustedCards} exhausted; widest document ${P.audit.maxScrollWidth} px`);
    }
    const problems = (P, kind) => P.audit.problems.filter((p) => p.kind === kind).map((p) => `[${p.where}${p.path ? " " + p.path : ""}, ×${p.count}] ${p.detail}`);
    const report = (kind) => [A, B, S].flatMap((P) => problems(P, kind).map((s) => `${P.name}: ${s}`));
    for (const k of ["unnamed", "state", "overflow", "auditor", "clipped", "overlap", "fold"]) if (report(k).length) log(`AUDIT ${k}:\n  ${report(k).join("\n  ")}`);
    log(`chromium's accessibility tree at the ${"screenshots"}: ${axChecked} controls and images checked, ${AX_PROBLEMS.length} without a name`);
    if (AX_PROBLEMS.length) log(`AUDIT accessibility tree:\n  ${AX_PROBLEMS.join("\n  ")}`);
    log(axeTable());
    const axeFound = AXE_ROWS.filter((r) => r.fails.length).map((r) => `${r.screen} ${r.lang} ${r.size}: ${r.fails.map((v) => `${v.id} [${v.impact}] ${v.targets[0]}`).join("; ")}`);
    const axeSeen = new Set(AXE_ROWS.map((r) => `${r.screen} ${r.lang} ${r.size}`));
    const axeMissing = [];
    // (a game without any pending choice is possible, if rare: the shuffles are the server's)
    const pendingSeen = moments.has("pending-" + A.name) || moments.has("pending-" + B.name);
    if (!pendingSeen) log("axe: no pending choice came up in this game, so none was checked");
    for (const screen of ["landing", "lobby", "characters", "planning", "struggle", ...(pendingSeen ? ["pending choice"] : []), "dominance", "game over", "replay", "archive", "spectator (struggle)"]) {
      for (const l of AXE_LANGS) for (const z of [AXE_DESKTOP, AXE_PHONE]) if (!axeSeen.has(`${screen} ${l} ${z.width}×${z.height}`)) axeMissing.push(`${screen} ${l} ${z.width}×${z.height}`);
    }
    assert.deepEqual(axeFound, [], "axe-core finds no serious or critical violation, and every page has its h1, on every screen");
    assert.deepEqual(axeMissing, [], "axe-core checked every screen in every language at both sizes");
    assert.deepEqual(report("auditor"), [], "the page auditor ran without errors");
    assert.deepEqual(report("unnamed"), [], "every visible button, input, select, link, summary and image has an accessible name");
    assert.deepEqual(AX_PROBLEMS, [], "chromium computes a non-empty name for every control and image in its accessibility tree");
    assert.ok(axChecked > 100, "chromium's accessibility tree was checked");
    assert.deepEqual(report("state"), [], "every card in play shows its ready / exhausted state as text and in its accessible name");
    assert.deepEqual(problems(B, "overflow"), [], "the 375 px phone page never overflows horizontally");
    assert.deepEqual([...problems(A, "overflow"), ...problems(S, "overflow")], [], "the desktop pages never overflow horizontally");
    assert.deepEqual(report("clipped"), [], "no text is cut off (a whole-line clamp with an ellipsis aside) in any language");
    assert.deepEqual(report("overlap"), [], "no text is drawn over other text in any language");
    assert.deepEqual(problems(A, "fold"), [], "every decision's controls are on screen at the top of the page and uncovered");
    if (FITS.length) log(`FITS:\n  ${FITS.join("\n  ")}`);
    assert.deepEqual(FITS, [], "every screen fits: first screens, the phone's decisions and bar, card names, the replay's controls, card details, one secret mark per strip, a choice that moves nothing");
    assert.deepEqual([...foldSizes].sort(), DESKTOP_SIZES.map((s) => `${s.width}×${s.height}`).sort(), "decisions were checked at both desktop sizes");
    log(`fold: the desktop player's decisions checked at ${[...foldSizes].join(" and ")}`);
    assert.ok(B.audit.checks > 30, `the phone page was audited throughout the game (${B.audit.checks} renders)`);
    for (const P of [A, B]) {
      const states = Object.keys(P.audit.states).join(" ");
      for (const s of ["characters", "planning", "table", "game-over"]) assert.ok(states.includes(s), `${P.name}: the ${s} state was audited (${states})`);
    }
    assert.ok(Object.keys(A.audit.states).some((s) => s.includes("landing")) && Object.keys(A.audit.states).some((s) => s.includes("lobby")), "the landing page and the lobby were audited");
    assert.ok([A, B, S].some((P) => P.audit.exhaustedCards > 0), "exhausted cards in play were seen (and checked)");

    assert.ok(reloaded, "the rebel page was reloaded mid-game");
    assert.ok(langSwitched, "the imperial page switched language");
    for (const P of [A, B]) assert.ok(detailChecked[P.name], `${P.name}: the card details were checked`);
    for (const P of [A, B, S]) assert.deepEqual(P.pageErrors ?? [], [], `${P.name}: no page errors`);
    for (const k of ["struggle-" + A.name, "struggle-" + B.name, "dominance-" + A.name, "dominance-" + B.name]) assert.ok(moments.has(k), `moment ${k} seen`);
    assert.ok(moments.has("planning-" + A.name) || moments.has("planning-" + B.name), "moment planning seen");
    log(`moments: ${[...moments].join(", ")}`);
    if (refusals.length) log(`refused actions (handled): ${refusals.join(" | ")}`);
  } finally {
    await cleanup();
  }
});

// ---------------------------------------------------------------- the tutorial
test("a newcomer plays the tutorial against the computer in 日本語 at 1366×768, guided by the coach", { timeout: 120_000 }, async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  const server = await startServer();
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"] });
  try {
    // the browser's language picks the page's (navigator.languages = ja-JP)
    const ctx = await browser.newContext({ viewport: DESKTOP_SIZES[1], locale: "ja-JP", baseURL: server.base });
    // system notifications, allowed by this browser: a stand-in records them
    await ctx.addInitScript(() => {
      window.__notes = [];
      window.Notification = class {
        static permission = "default";
        static async requestPermission() {
          window.Notification.permission = "granted";
          return "granted";
        }
        constructor(title, options) {
          window.__notes.push({ title, body: options?.body });
        }
      };
    });
    await ctx.addInitScript(auditor, { words: STATE_WORDS, width: null });
    await ctx.addInitScript(textAudit);
    const page = await ctx.newPage();
    const errors = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    await page.goto("/");
    await page.waitForFunction(() => document.documentElement.lang === "ja");
    // the whole create form on the first screen in 日本語 at 1366×768, Over days chosen (its
    // per-move choice and explanation open below the clock)
    await page.check('input[name="clock"][value="days"]');
    await page.waitForSelector("#days-explain");
    assert.deepEqual(await page.evaluate(landingFits), [], "the landing fits 1366×768 in 日本語 with Over days");
    await page.check('input[name="side"][value="rebel"]');
    await page.check('input[name="mode"][value="tutorial"]');
    await page.check('input[name="opponent"][value="easy"]');
    await page.check('input[name="clock"][value="10+10"]');
    await page.click('form button.primary[type="submit"]');
    await page.waitForSelector(".coach", { timeout: 15_000 });
    const first = (await page.textContent(".coach")).trim();
    assert.ok(first.includes("「カードをプレイする」を押す"), `the first lesson says to play the top card: ${first}`);
    // the clocks (10+10): both shown, the deciding side's running, counting down
    await page.waitForSelector(".clocks .clock.rebel.running");
    assert.equal(await page.locator(".clocks .clock").count(), 2);
    const t0 = await page.textContent(".clock.rebel .time");
    await page.waitForFunction((t) => document.querySelector(".clock.rebel .time")?.textContent !== t, t0, { timeout: 5000 });
    assert.match(t0, /^(10:00|9:5\d)$/, `a 10-minute bank: ${t0}`);
    assert.ok(await page.locator(".clocks .clock.rebel.running .run-text").isVisible(), "the running clock says so in words, not by an outline alone");
    await shot(page, "13-tutorial-ja-1366x768", { fullPage: false });

    // your turn while away: notifications switched on in the settings menu, the page hidden; the
    // next decision that arrives (after the computer's move) notifies and marks the tab
    await page.click(".settings > summary");
    await page.check(".pref-notify");
    await page.click(".settings > summary");
    const setAway = (away) =>
      page.evaluate((a) => {
        Object.defineProperty(document, "visibilityState", { configurable: true, get: () => (a ? "hidden" : "visible") });
        document.hasFocus = () => !a;
        document.dispatchEvent(new Event("visibilitychange"));
      }, away);
    await setAway(true);
    assert.deepEqual(await page.evaluate(() => window.__notes), [], "no notification for the decision already shown");
    await page.click(".board .actionbar button.primary");
    await page.waitForFunction(() => window.__notes.length > 0, null, { timeout: STEP_TIMEOUT_MS });
    const notes = await page.evaluate(() => window.__notes);
    assert.equal(notes[0].title, "あなたの番です — EvR Online");
    assert.match(await page.title(), /^▶ あなたの番 · /, "the tab's title says it");
    assert.match(await page.getAttribute('link[rel="icon"]', "href"), /^data:image\/svg\+xml/, "the tab's icon says it");
    await setAway(false);
    await page.waitForFunction(() => !document.title.startsWith("▶"));
    log(`your turn while away: notified (${notes[0].title} / ${notes[0].body}), title and icon marked, cleared on return`);

    const lessons = new Set();
    const fold = [];
    for (let step = 0; step < 200; step++) {
      const state = await (
        await page.waitForFunction(
          () => {
            if (document.querySelector(".gameover")) return "over";
            const dlg = document.querySelector('[role="dialog"]');
            if (dlg && dlg.querySelector('input[type="radio"]')) return "dialog";
            if ([...document.querySelectorAll(".board .actionbar button, .board .card-btn:not(.target-btn)")].some((b) => !b.disabled)) return "turn";
            return null;
          },
          null,
          { polling: 50, timeout: STEP_TIMEOUT_MS },
        )
      ).jsonValue();
      if (state === "over") break;
      const lesson = (await page.textContent(".coach").catch(() => "")).trim();
      assert.ok(lesson.length > 20, `the coach speaks at every decision (${state}): "${lesson}"`);
      lessons.add(lesson.replace(/\d+/g, "#"));
      fold.push(...(await page.evaluate(foldProblems)));
      if (state === "dialog") {
        await page.check('[role="dialog"] input[type="radio"] >> nth=0');
        await page.click('[role="dialog"] button.primary');
      } else {
        // follow the coach: play while it says there is room, pass once it warns of bust or a full area
        const stop = /バースト|いっぱい|パスすると紛争が終わり/.test(lesson);
        const play = page.locator(".board .actionbar button.primary");
        if (!stop && (await play.count()) && (await play.isEnabled())) await play.click();
        else await page.click(".board .actionbar button:not(.primary)");
      }
      await page.waitForFunction((before) => (document.querySelector(".coach")?.textContent ?? "") !== before || !!document.querySelector(".gameover"), lesson, { polling: 50, timeout: STEP_TIMEOUT_MS }).catch(() => {});
    }
    await page.waitForSelector(".gameover");
    const over = (await page.textContent(".gameover")).replace(/\s+/g, " ");
    assert.match(over, /最終の総リソース値：反乱軍 \d+ – \d+ 帝国軍（目標値 \d+）/, `the end gives the totals that decided it: ${over}`);
    assert.ok(!over.includes("勝利ポイント +"), "no VP are awarded in the tutorial");
    assert.equal((await page.textContent('.gameover a[href="/"]')).trim(), "通常ゲームを始める");
    // the computer agreed to reveal the game as it ended: the player alone reveals and downloads it
    const agreement = (await page.textContent(".gameover .reveal-status")).trim();
    assert.match(agreement, /コンピューターは同意しました/, `the computer has agreed: ${agreement}`);
    assert.equal(await page.$(".gameover a[download]"), null, "no file before the player agrees");
    await page.click(".gameover button.reveal-agree");
    await page.waitForSelector(".gameover a[download]", { timeout: 5000 });
    const [download] = await Promise.all([page.waitForEvent("download"), page.click(".gameover a[download]")]);
    const tutorialReplay = join(ARTIFACTS, "replay-tutorial.json");
    await download.saveAs(tutorialReplay);
    const verified = spawnSync(join(REPO, "target/release/evr"), ["verify", tutorialReplay], { encoding: "utf8" });
    assert.equal(verified.status, 0, `evr verify accepts the computer game's replay: ${verified.stdout}${verified.stderr}`);
    log(`tutorial against the computer: revealed by the player alone, downloaded, ${verified.stdout.trim()}`);
    await shot(page, "14-tutorial-over-ja-1366x768", { fullPage: false });
    await page.evaluate(() => window.__audit.run("final"));
    const problems = await page.evaluate(() => window.__audit.problems.map((p) => `${p.kind}: ${p.detail}`));
    assert.deepEqual(problems, [], "the tutorial's pages are accessible, unclipped, without overlapping text");
    assert.deepEqual(fold, [], "every decision of the tutorial fits 1366×768");
    assert.ok(lessons.size >= 2, `the coach changed its lesson as the game went on (${lessons.size}): ${[...lessons].join(" | ")}`);
    assert.deepEqual(errors, [], "no page errors");
    log(`tutorial: ${lessons.size} different lessons seen; ${over.slice(0, 120)}`);
  } finally {
    await browser.close().catch(() => {});
    await server.stop();
  }
});
