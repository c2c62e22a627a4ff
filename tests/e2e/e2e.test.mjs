// End-to-end browser test of EvR Online: two players create / join a room and play a whole game
// by clicking the real UI in Debian's chromium (playwright-core), while a spectator watches.
// Run with `node --test e2e.test.mjs` (see README.md); run.sh starts the server.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, mkdirSync, readFileSync, readdirSync, rmSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createServer } from "node:net";
import { chromium } from "playwright-core";

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = resolve(HERE, "../..");
const ARTIFACTS = process.env.E2E_ARTIFACTS ?? join(HERE, "artifacts");
const SEED = Number(process.env.E2E_SEED ?? 20261122) >>> 0;
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const GAME_TIMEOUT_MS = Number(process.env.E2E_GAME_TIMEOUT_MS ?? 240_000);
const STEP_TIMEOUT_MS = 30_000;

const t0 = Date.now();
const log = (msg) => console.log(`[e2e +${((Date.now() - t0) / 1000).toFixed(1)}s] ${msg}`);

// ---------------------------------------------------------------- names (oracle for leaks)
const cards = JSON.parse(readFileSync(join(REPO, "crates/rules/data/cards.json"), "utf8"));
const CHARACTERS = [...cards.characters.rebel, ...cards.characters.imperial].map((c) => c.name);
/** Localized forms of the names the glossary translates (web-client/src/i18n/names.ts). */
const LOCAL_NAMES = (() => {
  const src = readFileSync(join(REPO, "web-client/src/i18n/names.ts"), "utf8");
  const out = {};
  for (const m of src.matchAll(/^\s*"?([^":\n]+?)"?\s*:\s*\{\s*"zh-Hant":\s*"([^"]+)",\s*ja:\s*"([^"]+)"\s*\}/gm)) out[m[1]] = [m[2], m[3]];
  return out;
})();
/** character → every form it may take in the DOM (en, zh-Hant, ja) */
const NAME_FORMS = CHARACTERS.map((c) => [c, [c, ...(LOCAL_NAMES[c] ?? [])]]);
const fromLocal = (text) => NAME_FORMS.find(([, forms]) => forms.includes(text.trim()))?.[0] ?? null;

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
async function freePort() {
  return new Promise((res, rej) => {
    const s = createServer();
    s.unref();
    s.on("error", rej);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => res(port));
    });
  });
}

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
  const proc = spawn(bin, ["--bind", `127.0.0.1:${port}`, "--data-dir", dataDir, "--messages-per-second", "1000"], {
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
  const P = { page, name, seq: -1, frames: 0, errors: [], welcomes: [], lastView: null, room: null, you: null, waiters: new Set(), actions: 0, chosen: [], refused: [] };
  page.on("websocket", (ws) => {
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
  return P;
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
        if (m.view) {
          st.views++;
          st.phase = m.view.phase;
          st.latest = new Set(namesIn(JSON.stringify(m.view)));
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

// ---------------------------------------------------------------- UI helpers
async function shot(page, name) {
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
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
      return { selector: `[data-e2e="${tag}"]`, label: (el.getAttribute("aria-label") || el.textContent || "").trim().slice(0, 60), n: els.length };
    },
    { sel, r, tag },
  );
}

let tagCounter = 0;
async function clickOne(P, sel, rng) {
  const m = await markControl(P.page, sel, rng(), `c${++tagCounter}`);
  if (!m) return null;
  try {
    await P.page.click(m.selector, { timeout: 3000 });
  } catch (e) {
    log(`${P.name}: click on "${m.label}" not done (${e.message.split("\n")[0]}); the view moved on, deciding again`);
    return null;
  }
  return m;
}

// ---------------------------------------------------------------- the test
test("two players play a whole game by clicking; the spectator sees nothing secret", { timeout: 290_000 }, async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  for (const f of readdirSync(ARTIFACTS)) if (f.endsWith(".png")) rmSync(join(ARTIFACTS, f), { force: true }); // keep run.sh's server.log
  log(`seed ${SEED}; chromium ${CHROMIUM}`);
  assert.equal(CHARACTERS.length, 16, "16 characters in cards.json");
  assert.ok(Object.keys(LOCAL_NAMES).length >= 8 && LOCAL_NAMES["Han Solo"], "localized names read from names.ts");
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
  try {
    const ctxOpts = { viewport: { width: 1280, height: 1000 }, locale: "en-US", baseURL: base };
    const [ctxA, ctxB, ctxS] = await Promise.all([browser.newContext(ctxOpts), browser.newContext(ctxOpts), browser.newContext(ctxOpts)]);
    const A = track(await ctxA.newPage(), "rebel(creator)");
    const B = track(await ctxB.newPage(), "imperial(guest)");
    const specPage = await ctxS.newPage();
    await specPage.addInitScript(spectatorSpy, NAME_FORMS);
    const S = track(specPage, "spectator");
    for (const P of [A, B, S]) P.page.setDefaultTimeout(STEP_TIMEOUT_MS);

    // ---- 1. create the room by clicking (Rebel, full game, a friend, spectators allowed)
    await A.page.goto("/");
    await A.page.click('input[name="side"][value="rebel"]');
    await A.page.click('input[name="mode"][value="full"]');
    await A.page.click('input[name="opponent"][value="friend"]');
    await A.page.click('input[name="spectators"][value="anyone_with_link"]');
    await A.page.click("form.panel button.primary[type=submit]");
    await A.page.waitForURL(/\/r\/[A-Za-z0-9]+$/);
    const code = new URL(A.page.url()).pathname.split("/")[2];
    await A.page.waitForSelector(".lobby .copyfield input");
    const [invite, watch] = await A.page.$$eval(".lobby .copyfield input", (els) => els.map((e) => e.value));
    assert.match(invite, new RegExp(`/r/${code}/join#.+`), "invite link shown in the lobby");
    assert.match(watch, new RegExp(`/r/${code}/watch$`), "watch link shown in the lobby");
    await A.page.waitForFunction(() => document.querySelector(".room")?.classList.contains("rebel"));
    log(`room ${code} created; invite ${invite}`);
    await shot(A.page, "01-lobby");

    // ---- spectator first (it sees the lobby, then everything), then the guest joins
    await S.page.goto(watch);
    await S.page.waitForSelector(".room.spectator");
    // the oracle must catch a leak: plant a hidden character's name, expect a violation, remove it
    const planted = await S.page.evaluate(async () => {
      const st = window.__evr;
      const span = document.createElement("span");
      span.textContent = "Yoda";
      const checks = st.checks;
      document.body.appendChild(span);
      for (let i = 0; i < 200 && st.checks === checks; i++) await new Promise((r) => setTimeout(r, 10));
      const caught = st.violations.length;
      span.remove();
      const after = st.checks;
      for (let i = 0; i < 200 && st.checks === after; i++) await new Promise((r) => setTimeout(r, 10));
      st.violations.length = 0;
      delete st.firstShown.Yoda;
      return caught;
    });
    assert.ok(planted > 0, "the spectator oracle flags a planted hidden name");
    log("spectator oracle self-check: a planted hidden name is flagged");
    await B.page.goto(invite);
    await B.page.waitForURL(new RegExp(`/r/${code}$`));
    await B.page.waitForFunction(() => document.querySelector(".room")?.classList.contains("imperial"));
    await until(() => B.you && S.you, "the welcome frames of the guest and the spectator");
    assert.deepEqual(B.you, { role: "seat", faction: "imperial" }, "the guest took the free (Imperial) seat");
    assert.deepEqual(S.you, { role: "spectator" });
    await Promise.all([A, B].map((P) => P.page.waitForSelector("button.pick")));
    await S.page.waitForFunction(() => document.body.textContent.includes("choosing their characters"));
    log("both seated; character choice");

    // ---- 2. play by clicking, both players concurrently
    const deadline = Date.now() + GAME_TIMEOUT_MS;
    const moments = new Set();
    const refusals = [];
    let reloaded = false;
    let langSwitched = false;

    const moment = async (key, fn) => {
      if (moments.has(key)) return;
      moments.add(key);
      await fn();
    };

    async function chooseCharacters(P, rng) {
      for (let attempt = 0; attempt < 40; attempt++) {
        // unpick whatever is picked (e.g. after a refused confirm), then pick 4 at random
        for (const el of await P.page.$$('button.pick[aria-pressed="true"]')) await el.click();
        const names = await P.page.$$eval("button.pick .name", (els) => els.map((e) => e.textContent));
        const order = names.map((_, i) => i);
        for (let i = order.length - 1; i > 0; i--) {
          const j = pickIndex(rng, i + 1);
          [order[i], order[j]] = [order[j], order[i]];
        }
        const chosen = order.slice(0, 4);
        for (const i of chosen) await P.page.locator("button.pick").nth(i).click();
        await P.page.waitForFunction(() => document.querySelectorAll('button.pick[aria-pressed="true"]').length === 4);
        const ok = await P.page.$eval(".chars .actionbar button.primary", (b) => !b.disabled);
        if (!ok) continue; // not a legal set: choose again
        const chosenNames = chosen.map((i) => fromLocal(names[i]));
        assert.ok(chosenNames.every(Boolean), `${P.name}: chosen names recognised: ${chosen.map((i) => names[i])}`);
        await moment("chars-" + P.name, () => shot(P.page, `02-characters-${P.name.split("(")[0]}`));
        await moment("chars-spectator", () => shot(S.page, "02-characters-spectator"));
        const answer = actionAnswer(P);
        await P.page.click(".chars .actionbar button.primary");
        const a = await answer;
        if (!a.ok) return; // refused (e.g. stale: the other side chose first): decide again
        P.actions++;
        P.chosen = chosenNames;
        log(`${P.name}: characters locked in: ${P.chosen.join(", ")}`);
        return;
      }
      throw new Error(`${P.name}: no legal set of 4 characters found`);
    }

    async function switchLanguage(P) {
      // 日本語 mid-game on the guest page: the UI text changes, play goes on in Japanese
      const before = await P.page.textContent("#plan-h");
      assert.equal(before, "Choose strategies");
      await P.page.selectOption("header.topbar select", "ja");
      await P.page.waitForFunction(() => document.documentElement.lang === "ja");
      assert.equal(await P.page.textContent("#plan-h"), "戦略の選択", "strategy title in Japanese");
      assert.equal((await P.page.textContent("header.topbar .code")).trim(), `ルーム ${code}`, "header in Japanese");
      await shot(P.page, "04-planning-ja");
      log(`${P.name}: switched to 日本語 (strategy title "${before}" → "戦略の選択")`);
    }

    async function reloadMidGame(P) {
      const faction = P.you.faction;
      const welcomes = P.welcomes.length;
      const seqBefore = P.seq;
      log(`${P.name}: reloading the page mid-game (seq ${seqBefore})`);
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
      await shot(P.page, "05-after-reload");
      log(`${P.name}: resumed as ${faction} at seq ${P.seq}`);
    }

    async function playerLoop(P, rng) {
      for (;;) {
        if (Date.now() > deadline) throw new Error(`${P.name}: the game did not end within ${GAME_TIMEOUT_MS} ms`);
        if (P.pageErrors?.length) throw new Error(`${P.name}: page error: ${P.pageErrors.join("; ")}`);
        let kind;
        try {
          kind = await (await P.page.waitForFunction(detect, null, { polling: 50, timeout: STEP_TIMEOUT_MS })).jsonValue();
        } catch (e) {
          const text = await P.page.evaluate(() => document.body.innerText.slice(0, 1500)).catch(() => "?");
          await shot(P.page, `stuck-${P.name.split("(")[0]}`).catch(() => {});
          throw new Error(`${P.name}: nothing to do for ${STEP_TIMEOUT_MS} ms (seq ${P.seq}, phase ${P.lastView?.phase}); page:\n${text}`);
        }
        if (kind === "over") return;
        if (kind === "toast") {
          const text = await P.page.textContent(".toast").catch(() => "");
          refusals.push(`${P.name}: ${text}`);
          log(`${P.name}: refused action shown (${text?.trim()}); closing the toast, deciding again`);
          await P.page.click(".toast button").catch(() => {});
          continue;
        }
        if (kind === "chars") {
          await chooseCharacters(P, rng);
          continue;
        }
        // mid-game moments
        // reload at the rebel's first struggle turn: characters and strategies chosen, struggle under way
        if (P === A && !reloaded && kind === "struggle") {
          reloaded = true;
          await reloadMidGame(P);
          continue;
        }
        if (P === B && !langSwitched && kind === "strategy") {
          langSwitched = true;
          await switchLanguage(P);
        }
        if (kind === "strategy") {
          await moment("planning", () => shot(P.page, "03-planning"));
          const answer = actionAnswer(P);
          const m = await clickOne(P, "button.strategy", rng);
          if (m) {
            P.actions++;
            await answer;
          } else answer.cancel();
          continue;
        }
        if (kind === "dialog") {
          await moment("pending", () => shot(P.page, "07-pending-choice"));
          const checked = await P.page.$$eval('[role="dialog"] input[type="radio"]', (rs) => rs.some((r) => r.checked));
          if (!checked) {
            const m = await clickOne(P, '[role="dialog"] input[type="radio"]', rng);
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
          const answer = actionAnswer(P);
          const m = await clickOne(P, '[role="dialog"] button.primary', rng);
          if (m) {
            P.actions++;
            await answer;
          } else answer.cancel();
          continue;
        }
        if (kind === "struggle") {
          await moment("struggle", async () => {
            await shot(P.page, "06-struggle");
            await shot(S.page, "06-struggle-spectator");
          });
          const answer = actionAnswer(P);
          const m = await clickOne(P, ".table .actionbar button, .table .card-btn:not(.target-btn)", rng);
          if (m) {
            P.actions++;
            await answer;
          } else answer.cancel();
        }
      }
    }

    // dominance / round result: the first time a round's summary shows on the creator's page
    const dominanceShot = (async () => {
      await A.page.waitForSelector(".dominance", { timeout: GAME_TIMEOUT_MS });
      await moment("dominance", () => shot(A.page, "08-dominance"));
    })().catch(() => {});

    // spectator: check its DOM after every update frame it receives (plus after every render, in page)
    let specFrameChecks = 0;
    S.waiters.add((m) => {
      if (m.type === "update" || m.type === "welcome") {
        specFrameChecks++;
        S.page.evaluate(() => window.__evr.check("frame")).catch(() => {});
      }
    });

    await Promise.all([playerLoop(A, mulberry32(SEED)), playerLoop(B, mulberry32(SEED ^ 0x9e3779b9))]);
    log(`game over: ${A.actions} rebel and ${B.actions} imperial actions clicked; final seq ${A.seq}; refused by the server: ${[...A.refused, ...B.refused].join(", ") || "none"}; toasts: ${refusals.length}`);
    await dominanceShot;

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
      (url) =>
        new Promise((res, rej) => {
          const ws = new WebSocket(url);
          const timer = setTimeout(() => rej(new Error("no welcome on the check socket")), 10_000);
          ws.onopen = () => ws.send(JSON.stringify({ type: "hello", version: 1, token: null, last_seq: null }));
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
      base.replace(/^http/, "ws") + "/ws/" + code,
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
      const side = winner === "rebel" ? "Rebel" : "Imperial";
      assert.match(hS.text, new RegExp(`^${side}`), `the spectator's headline names the winner: ${hS.text}`);
    }
    await shot(A.page, "09-game-over-rebel");
    await shot(B.page, "09-game-over-imperial-ja");
    await shot(S.page, "09-game-over-spectator");

    // language: switch the game-over page to 繁體中文, then back to English
    assert.equal(await B.page.textContent("#over-h"), "ゲーム終了");
    await B.page.selectOption("header.topbar select", "zh-Hant");
    await B.page.waitForFunction(() => document.querySelector("#over-h")?.textContent === "遊戲結束");
    await shot(B.page, "10-game-over-zh-Hant");
    await B.page.selectOption("header.topbar select", "en");
    await B.page.waitForFunction(() => document.querySelector("#over-h")?.textContent === "Game over");
    log("language: ja → zh-Hant (遊戲結束) → en (Game over) on the game-over page");

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

    assert.ok(reloaded, "the rebel page was reloaded mid-game");
    assert.ok(langSwitched, "the imperial page switched language");
    for (const P of [A, B, S]) assert.deepEqual(P.pageErrors ?? [], [], `${P.name}: no page errors`);
    for (const k of ["planning", "struggle", "dominance"]) assert.ok(moments.has(k), `moment ${k} seen`);
    log(`moments: ${[...moments].join(", ")}`);
    if (refusals.length) log(`refused actions (handled): ${refusals.join(" | ")}`);
  } finally {
    await cleanup();
  }
});
