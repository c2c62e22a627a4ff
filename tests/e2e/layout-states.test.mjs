// The layout property test (issue "a table worth sitting at"): thousands of states of random whole
// games, played by the real engine from fixed seeds (`evr views`, states.mjs), each shown by the real
// browser client (web-client/dist, served here as the server serves it) in Debian's chromium at six
// screen sizes in English, Traditional Chinese and Japanese, with the longest names players may
// choose (24 characters), a clock, a deadline or the computer in the other seat. In every state:
// every control of the viewer's decision is on screen (desktop: with the page at its top) and
// nothing covers it, a phone reaches each one uncovered, the page never scrolls sideways, a desktop
// play area is one row and no card's name or power is cut (statecheck.mjs has the checks).
//
// The page's WebSocket is the test's (statecheck.mjs, fakeSocket): each state reaches the client as
// the `welcome` the server sends that viewer. One screenshot per size and language of the fullest
// state with a decision goes to artifacts/ (table-<lang>-<W>x<H>.png), and one of a game's end: the
// result over the final table (table-over-<lang>-<W>x<H>.png).
//
//   node --test layout-states.test.mjs      (tests/e2e/run.sh runs it; needs target/release/evr and
//                                            web-client/dist)
//   EVR_LAYOUT_DIST=DIR     another build of the client (e.g. an older one, for before/after shots)
//   EVR_LAYOUT_SHOTS=NAME   screenshots named NAME-<lang>-<W>x<H>.png (default: table)
//   EVR_LAYOUT_GAMES=N      full games to play (default 13; the test needs ≥ 2,000 states)
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { serveDist } from "./serve-dist.mjs";
import { gameMessages, hasDecision, pickStates, room } from "./states.mjs";
import { checkGame, fakeSocket } from "./statecheck.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, "../..");
const DIST = resolve(process.env.EVR_LAYOUT_DIST ?? join(ROOT, "web-client/dist"));
const EVR = process.env.EVR_CLI_BIN ?? join(ROOT, "target/release/evr");
const ARTIFACTS = join(HERE, "artifacts");
const SHOTS = process.env.EVR_LAYOUT_SHOTS ?? "table";
const GAMES = Number(process.env.EVR_LAYOUT_GAMES ?? 13);
// (fewer games, for a quick look while working, lift the floor)
const MIN_STATES = process.env.EVR_LAYOUT_GAMES ? 0 : 2000;

const SIZES = [
  { width: 1280, height: 800 },
  { width: 1366, height: 768 },
  { width: 1440, height: 900 },
  { width: 1920, height: 1080 },
  { width: 375, height: 667, phone: true },
  { width: 390, height: 844, phone: true },
];
/** The longest display names a player may choose (24 characters, crates/server/src/names.rs). */
const NAMES = {
  en: ["Maximiliana Worthington", "Bartholomew Fitzwilliams"],
  "zh-Hant": ["歐陽諸葛司馬上官東方皇甫尉遲公羊澹臺公冶宗政濮陽", "長孫宇文慕容司徒司空端木軒轅令狐鍾離閭丘夏侯諸葛"],
  ja: ["ジョン・ジェイコブ・ジングルハイマー・シュミッ", "アレクサンドラ・フォン・シュヴァルツェンベルク"],
};
const CODE = "TABME234";

/** The room around a state: a live clock, a game over days, or the computer in the other seat. */
function roomFor(i, lang, viewer) {
  const variant = i % 3;
  const names = [...NAMES[lang]];
  const options = { side: "random", mode: "full", spectators: "anyone_with_link" };
  let clock;
  if (variant === 0) {
    options.clock = { bank_secs: 600, increment_secs: 5 };
    clock = { remaining_ms: [431_000, 27_000], running: [viewer !== "imperial", viewer === "imperial"], deadline_unix_ms: [null, null], days_per_decision: null };
  } else if (variant === 1) {
    options.clock = { days_per_decision: 3 };
    const at = Date.now() + 2.5 * 86_400_000;
    clock = { remaining_ms: [0, 0], running: [viewer !== "imperial", viewer === "imperial"], deadline_unix_ms: [at, at], days_per_decision: 3 };
  } else {
    options.opponent = { kind: "computer", level: "hard" };
    names[viewer === "imperial" ? 0 : 1] = null;
  }
  return { room: room(CODE, options, names), clock };
}

let server;
let browser;
let games;
let stateCount;
before(async () => {
  const t0 = Date.now();
  games = [
    ...pickStates({ evr: EVR, games: GAMES, firstSeed: 1 }),
    ...pickStates({ evr: EVR, games: 2, firstSeed: 1, mode: "tutorial", spectatorEvery: 6, worst: 0 }),
  ];
  stateCount = games.reduce((n, g) => n + g.check.length, 0);
  console.log(`${stateCount} states from ${GAMES} full games (seeds 1–${GAMES}) and 2 tutorial games, in ${Date.now() - t0} ms`);
  server = await serveDist(DIST);
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium" });
  mkdirSync(ARTIFACTS, { recursive: true });
});
after(async () => {
  await browser?.close();
  server?.close();
});

/** Every state at one size in one language; resolves to its problems, `[key, problem]` pairs. */
async function checkSize(lang, size) {
  const base = `http://127.0.0.1:${server.address().port}`;
  const ctx = await browser.newContext({
    viewport: { width: size.width, height: size.height },
    ...(size.phone ? { isMobile: true, hasTouch: true } : {}),
  });
  await ctx.addInitScript(fakeSocket);
  await ctx.addInitScript(
    ([code, lang]) => {
      localStorage.setItem(`evr.token.${code}`, "layout-test-token");
      localStorage.setItem("evr.lang", lang);
      localStorage.setItem("evr.prefs", JSON.stringify({ motion: "off", sound: false }));
    },
    [CODE, lang],
  );
  const page = await ctx.newPage();
  const problems = [];
  page.on("pageerror", (e) => problems.push(["page", `script error: ${e.message}`]));
  try {
    let showcase = null;
    let ending = null;
    let shot = null;
    for (const viewer of ["rebel", "imperial", "spectator"]) {
      await page.goto(`${base}/r/${CODE}${viewer === "spectator" ? "/watch" : ""}`);
      await page.waitForFunction(() => window.__states?.hello === true, null, { timeout: 20_000 }).catch(async (e) => {
        throw new Error(`${e.message}: ${await page.evaluate(() => document.body.innerText.slice(0, 300))}`);
      });
      const version = await page.evaluate(() => window.__states.version);
      for (const [i, game] of games.entries()) {
        if (game.viewer !== viewer || !inLanguage(game, lang)) continue;
        const decision = game.views.map(hasDecision);
        const variant = roomFor(i, lang, game.viewer);
        variant.room.options.mode = game.view.mode;
        const msgs = gameMessages(game, variant.room, { clock: variant.clock, version, spectators: 3 });
        const found = await page.evaluate(checkGame, { messages: msgs, check: game.check, decision, phone: !!size.phone });
        problems.push(...found.map(([step, p]) => [`${game.key} step ${step}`, p]));
        // the first problem at this size leaves a screenshot of its state
        if (found.length && !shot) {
          shot = `${SHOTS}-problem-${lang}-${size.width}x${size.height}.png`;
          await page.evaluate(checkGame, { messages: msgs, check: [found[0][0]], decision: [false], phone: !!size.phone });
          await page.screenshot({ path: join(ARTIFACTS, shot), fullPage: !!size.phone });
          console.log(`${shot}: ${game.key} step ${found[0][0]}: ${found[0][1]}`);
        }
        // a full game's end for the rebel seat: the result over the final table, for a screenshot
        if (viewer === "rebel" && !ending && game.view.mode === "full") ending = msgs;
        // the fullest struggle decision of the rebel seat, for the screenshot
        game.views.forEach((v, k) => {
          if (viewer === "rebel" && decision[k] && v.phase === "struggle" && (!showcase || fullness(v) > showcase.fullness))
            showcase = { fullness: fullness(v), msgs, step: game.check[k] };
        });
      }
    }
    if (showcase) {
      await page.goto(`${base}/r/${CODE}`);
      await page.waitForFunction(() => window.__states?.hello === true, null, { timeout: 20_000 });
      await page.evaluate(checkGame, { messages: showcase.msgs, check: [showcase.step], decision: [true], phone: !!size.phone });
      await page.screenshot({ path: join(ARTIFACTS, `${SHOTS}-${lang}-${size.width}x${size.height}.png`), fullPage: !!size.phone });
    }
    if (ending) {
      await page.goto(`${base}/r/${CODE}`);
      await page.waitForFunction(() => window.__states?.hello === true, null, { timeout: 20_000 });
      await page.evaluate(checkGame, { messages: ending, check: [ending.length - 1], decision: [false], phone: !!size.phone });
      await page.screenshot({ path: join(ARTIFACTS, `${SHOTS}-over-${lang}-${size.width}x${size.height}.png`) });
    }
  } finally {
    await ctx.close();
  }
  console.log(`${lang} ${size.width}×${size.height}: ${problems.length} problems`);
  return problems.map(([key, p]) => [key, `${size.width}×${size.height}: ${p}`]);
}
const fullness = (v) => v.rebel.play_area.length + v.imperial.play_area.length;

const LANGS = ["en", "zh-Hant", "ja"];
// Each game is checked in one of the three languages, by its seed (every language gets a third of
// the states, each at all six sizes): all of them in all three is three times the work,
// which EVR_LAYOUT_ALL_LANGS=1 does.
const ALL_LANGS = process.env.EVR_LAYOUT_ALL_LANGS === "1";
const inLanguage = (game, lang) => ALL_LANGS || LANGS[game.seed % 3] === lang;
// The 18 pages (six sizes, three languages) three at a time: rendering is what takes the time, and
// three keep both cores busy. Each language's test reports its own.
let checks;
function checked(lang) {
  if (!checks) {
    const tasks = LANGS.flatMap((l) => SIZES.map((s) => ({ l, s })));
    const results = new Map(tasks.map((t) => [t, null]));
    const pool = async () => {
      for (let t = tasks.shift(); t; t = tasks.shift()) results.set(t, await checkSize(t.l, t.s));
    };
    const all = Promise.all([pool(), pool(), pool()]).then(() => [...results]);
    checks = Object.fromEntries(LANGS.map((l) => [l, all.then((r) => r.filter(([t]) => t.l === l).map(([, p]) => p))]));
  }
  return checks[lang];
}

for (const lang of LANGS) {
  test(`layout in ${lang}: every decision on screen and uncovered, nothing sideways, no card text cut, at six sizes over ≥ ${MIN_STATES} engine states`, async () => {
    assert.ok(stateCount >= MIN_STATES, `only ${stateCount} states`);
    const t0 = Date.now();
    const problems = (await checked(lang)).flat();
    const mine = games.filter((g) => inLanguage(g, lang)).reduce((n, g) => n + g.check.length, 0);
    console.log(`${lang}: ${mine} states × ${SIZES.length} sizes checked (${((Date.now() - t0) / 1000).toFixed(1)} s after the previous language), ${problems.length} problems`);
    if (problems.length) {
      const kinds = new Map();
      for (const [key, p] of problems) {
        const kind = p.replace(/"[^"]*"/g, '"…"').replace(/\d+/g, "N");
        const k = kinds.get(kind) ?? { n: 0, example: `${p} (${key})` };
        k.n++;
        kinds.set(kind, k);
      }
      const lines = [...kinds.values()].sort((a, b) => b.n - a.n).map((k) => `${k.n}× e.g. ${k.example}`);
      assert.fail(`${problems.length} problems in ${lang}:\n${lines.slice(0, 25).join("\n")}`);
    }
  });
}
