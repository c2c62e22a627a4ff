// End-to-end test of a room played over days (issue 23): two browser contexts play a correspondence
// game whose pages are closed between moves; each visit starts from the link in a reminder mail taken
// from a real SMTP server on loopback (scripts/mail/smtp_sink.py writes each mail it receives as a
// .eml file), the server's "day" shortened by the test-only `--day-secs` (cargo feature `test-days`).
// After several visits on each side the imperial player stops answering: the server must time the
// game out on its own (nobody connected) once that decision's real deadline has passed, after
// mailing "time is running out". On the way: the create form's choice, the reminders panel (pending,
// confirmed), the deadlines at the table, "your rooms" putting the game first with its time left,
// axe-core and the 375 px overflow check on each new screen.
//
// Plain JavaScript ESM run by `node --test` (tests/e2e/run.sh). It starts the sink (mail.mjs, on
// EVR_SINK_PYTHON: a Python with aiosmtpd) and the server itself: EVR_CORR_SERVER_BIN (default
// target/release/evr-server, which must be built with `--features evr-server/test-days`);
// E2E_DAY_SECS (default 60: a decision's deadline, 1 day per move; long enough for a visit on a slow
// machine, the one wait the test cannot shorten).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { foldProblems } from "./layout.mjs";
import { decideKind, detect, setLang, trackFrames } from "./decide.mjs";
import { Mailbox, startSink, to } from "./mail.mjs";
import { child, freePort, healthy, sleep, until } from "./util.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = resolve(HERE, "../..");
const ARTIFACTS = process.env.E2E_ARTIFACTS ?? join(HERE, "artifacts");
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const BIN = process.env.EVR_CORR_SERVER_BIN ?? join(REPO, "target/release/evr-server");
const DAY_SECS = Number(process.env.E2E_DAY_SECS ?? 60);
/** Every game's deal: the server's test-only --test-fixed-seed (the same deal in every run). */
const DEAL_SEED = Number(process.env.E2E_DEAL_SEED ?? 20261126) >>> 0;
/** Visits from a reminder mail each side makes before the imperial player stops answering. */
const MAIL_VISITS = Number(process.env.E2E_MAIL_VISITS ?? 4);
const REBEL_MAIL = "rebel.player@example.org";
const IMPERIAL_MAIL = "imperial.player@example.org";
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 375, height: 812 };
const LANGS = ["en", "zh-Hant", "ja"];

const t0 = Date.now();
const log = (msg) => console.log(`[corr +${((Date.now() - t0) / 1000).toFixed(1)}s] ${msg}`);

// ---------------------------------------------------------------- the mails (mail.mjs)
const confirmLink = (m) => m.links.find((l) => l.includes("/mail/confirm/"));
/** A reminder: a mail with a link into the room that is not a confirmation. */
const roomLink = (m, code) => m.links.find((l) => new URL(l).pathname.startsWith(`/r/${code}`));

// ---------------------------------------------------------------- page checks
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
const AXE = [];
const OVERFLOW = [];
const FOLD = [];

/** axe-core on this page, in every language, at each size given; failures: serious / critical and
 *  page-has-heading-one. The page's viewport is put back after. */
async function axe(page, screen, sizes) {
  const back = page.viewportSize();
  for (const size of sizes) {
    await page.setViewportSize(size);
    for (const l of LANGS) {
      await setLang(page, l);
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      if (!(await page.evaluate(() => !!window.axe))) await page.evaluate(AXE_SOURCE); // (no inline <script> under the policy)
      const v = await page.evaluate(async () => (await window.axe.run(document, { resultTypes: ["violations"] })).violations.map((x) => ({ id: x.id, impact: x.impact, n: x.nodes.length, targets: x.nodes.slice(0, 3).map((n) => n.target.join(" ")) })));
      const bad = v.filter((x) => x.impact === "serious" || x.impact === "critical" || x.id === "page-has-heading-one");
      AXE.push({ screen, lang: l, size: `${size.width}×${size.height}`, bad });
      if (bad.length) log(`axe ${screen} ${l} ${size.width}: ${bad.map((b) => `${b.id} [${b.impact}] ×${b.n}: ${b.targets.join(" | ")}`).join("; ")}`);
      await overflow(page, `${screen} ${l} ${size.width}px`);
    }
  }
  await setLang(page, "en");
  await page.setViewportSize(back);
}

/** No horizontal overflow: the page is never wider than its viewport (375 px on the phone). */
async function overflow(page, where) {
  const p = await page.evaluate(() => {
    const w = Math.min(window.innerWidth, document.documentElement.clientWidth);
    const sw = document.documentElement.scrollWidth;
    if (sw <= w + 1) return null;
    const wide = [...document.querySelectorAll("body *")].filter((e) => e.getBoundingClientRect().right > w + 1).map((e) => `${e.tagName.toLowerCase()}.${[...e.classList].join(".")}`);
    return `${sw} px wide in a ${w} px viewport; past the edge: ${wide.slice(-3).join(", ")}`;
  });
  if (p) OVERFLOW.push(`${where}: ${p}`);
}

async function shot(page, name) {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, `corr-${name}.png`), fullPage: true }).catch(() => {});
}

// ---------------------------------------------------------------- making a decision on a page
/** Makes the decision the page offers; returns what it was (null: nothing to decide). On the
 *  desktop, the decision fits the screen first, with the deadlines in the header (layout.mjs). */
async function decideOnce(P) {
  const kind = await P.page.evaluate(detect);
  if (P.desktop && kind && kind !== "over" && kind !== "toast") {
    for (const p of await P.page.evaluate(foldProblems)) if (!FOLD.includes(`${kind}: ${p}`)) FOLD.push(`${kind}: ${p}`);
  }
  return decideKind(P, kind);
}

/** Makes every decision this page offers now, one after another (a decision that becomes this
 *  side's own right after its action is made in the same visit); returns how many. */
async function decideAll(P) {
  let made = 0;
  for (;;) {
    // the page has rendered the server's last word before we look
    await P.page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const kind = await decideOnce(P);
    if (!kind || kind === "over") return made;
    if (kind !== "toast") made++;
  }
}

// ---------------------------------------------------------------- the test
test("a game over days, each visit from a reminder mail, ends when a real deadline passes", { timeout: 600_000 }, async () => {
  assert.ok(existsSync(BIN), `${BIN} missing: build it with --features evr-server/test-days (see README.md)`);
  // (the flag is hidden from --help; a build without the feature refuses it)
  const probe = spawnSync(BIN, ["--day-secs", "1", "--version"], { encoding: "utf8" });
  assert.equal(probe.status, 0, `${BIN} was built without the test-days feature: ${probe.stderr}`);
  const dataDir = mkdtempSync(join(tmpdir(), "evr-corr-data-"));
  const sink = await startSink(join(ARTIFACTS, "corr-smtp-sink.log"));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = child(join(ARTIFACTS, "corr-server.log"), BIN, [
    "--bind", `127.0.0.1:${port}`,
    "--data-dir", dataDir,
    "--messages-per-second", "1000",
    "--public-origin", base,
    "--smtp-url", `smtp://127.0.0.1:${sink.port}`,
    "--day-secs", String(DAY_SECS),
    "--test-fixed-seed", String(DEAL_SEED),
  ]);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
  try {
    await healthy(base);
    assert.deepEqual(await (await fetch(`${base}/api/mail`)).json(), { enabled: true }, "the server offers reminders");
    const mail = new Mailbox(sink.dir);

    const A = { name: "rebel", desktop: true, mail: REBEL_MAIL, log, ctx: await browser.newContext({ viewport: DESKTOP, locale: "en-GB", timezoneId: "Asia/Tokyo" }) };
    const B = { name: "imperial", mail: IMPERIAL_MAIL, log, ctx: await browser.newContext({ viewport: PHONE, deviceScaleFactor: 2, isMobile: true, hasTouch: true, locale: "en-GB", timezoneId: "America/New_York" }) };
    const errors = [];
    // what the page's Content-Security-Policy blocks is an error too: the room's pages and the mail
    // link's page must need nothing it refuses (crates/server/src/defences.rs)
    const watchPolicy = (page, name) =>
      page.on("console", (m) => {
        if (m.type() === "error" && m.text().includes("Content Security Policy")) errors.push(`${name}: ${m.text()}`);
      });
    const open = async (P, url) => {
      const page = await P.ctx.newPage();
      page.on("pageerror", (e) => errors.push(`${P.name}: ${e.message}`));
      watchPolicy(page, P.name);
      trackFrames(page, P);
      P.page = page;
      await page.goto(url);
      return page;
    };
    const close = async (P) => {
      await P.page.close();
      P.page = null;
    };

    // -- the rebel creates a room over days, 1 day per move (the form's choice explained)
    let page = await open(A, `${base}/`);
    await page.click(".f-clock .opt-days");
    await page.waitForSelector("#days-explain");
    await page.click(".f-side .opt-rebel");
    assert.equal(await page.$eval('input[name=days][value="1"]', (i) => i.checked), true, "1 day per move is the default");
    await axe(page, "landing-days", [DESKTOP, PHONE]);
    await shot(page, "00-landing-days");
    await page.click("form.create button.primary[type=submit]");
    await page.waitForURL(/\/r\/[0-9A-Z]+$/);
    const code = new URL(page.url()).pathname.split("/")[2];
    log(`room ${code} created (1 day per move = ${DAY_SECS} s)`);

    // -- reminders in the lobby: the address, the pending state, the mail's confirmation link
    const setUpReminders = async (P) => {
      await P.page.waitForSelector(".reminders input[type=email]");
      await P.page.fill(".reminders input[type=email]", P.mail);
      await P.page.click(".reminders button.remind-send");
      await P.page.waitForSelector(".remind-state.pending");
      assert.match(await P.page.textContent(".remind-state.pending"), /Confirm the mail we sent to .*…@example\.org/);
      const confirmation = await mail.wait(to(P.mail), `${P.name}'s confirmation mail`, 20_000);
      const link = confirmLink(confirmation);
      assert.ok(link, `the confirmation mail holds a confirmation link: ${confirmation.text.slice(0, 300)}`);
      // the link's page asks for a press of its button (a mail scanner's GET confirms nothing)
      const confirmPage = await P.ctx.newPage();
      watchPolicy(confirmPage, `${P.name}'s confirmation page`);
      const res = await confirmPage.goto(link);
      assert.equal(res.status(), 200, "the confirmation link answers a page");
      const [done] = await Promise.all([confirmPage.waitForNavigation(), confirmPage.click("form[method=post] button[type=submit]")]);
      assert.equal(done?.status(), 200, "the confirmation is taken");
      await confirmPage.close();
      await P.page.reload();
      await P.page.waitForSelector(".remind-state.on");
      assert.match(await P.page.textContent(".remind-state.on"), /Reminders for this room go to .*…@example\.org/);
      log(`${P.name}: reminders confirmed`);
    };
    await setUpReminders(A);
    await axe(A.page, "lobby-reminders", [DESKTOP]);
    await shot(A.page, "01-lobby-reminders");
    const invite = await A.page.evaluate((c) => localStorage.getItem(`evr.invite.${c}`), code);
    assert.ok(invite, "the creator's invite link");
    await close(A);

    // -- the imperial joins on a phone; the game starts (characters, both sides at once)
    await open(B, new URL(invite, base).toString());
    await B.page.click("form.panel button.primary[type=submit]");
    await B.page.waitForSelector(".room");
    await B.page.waitForSelector(".reminders input[type=email]");
    await axe(B.page, "reminders-form", [PHONE]);
    await setUpReminders(B);
    await axe(B.page, "reminders-on", [PHONE]);
    await shot(B.page, "02-reminders-phone");
    // the decision the page is showing now was due while this side was here: it makes it now
    const first = await decideAll(B);
    log(`imperial: ${first} decision(s) on joining`);
    await close(B);
    const remembered = await (async () => {
      const p = await B.ctx.newPage();
      await p.goto(`${base}/`);
      const v = await p.evaluate(() => JSON.parse(localStorage.getItem("evr.prefs") ?? "{}").email);
      await p.close();
      return v;
    })();
    assert.equal(remembered, IMPERIAL_MAIL, "the device remembers the address for the next room");

    // -- the game, a visit per reminder mail
    const visits = { rebel: 0, imperial: 0 };
    let imperialStopped = null; // when the imperial stopped answering (its reminders then only counted)
    const ignored = [];
    let tableChecked = { rebel: false, imperial: false };
    let listChecked = false;
    const reminderFor = (P) => (m) => to(P.mail)(m) && !confirmLink(m) && !!roomLink(m, code);
    const seatState = async (P) => {
      const token = await P.ctx.storageState().then((s) => s.origins.flatMap((o) => o.localStorage).find((e) => e.name === `evr.token.${code}`)?.value);
      const r = await fetch(`${base}/api/rooms/${code}/seat`, { headers: { authorization: `Bearer ${token}` } });
      return r.json();
    };
    const visit = async (P, m) => {
      const link = roomLink(m, code);
      // before following it: this device's rooms list the game first, with the time left
      if (P === A && !listChecked) {
        const p = await P.ctx.newPage();
        await p.goto(`${base}/`);
        await p.waitForSelector(".room-row .room-state");
        const first = await p.$eval(".room-list .room-row", (r) => ({ href: r.querySelector("a")?.getAttribute("href"), text: r.textContent }));
        assert.equal(first.href, `/r/${code}`, "the game where it is your turn comes first");
        assert.match(first.text, /Your turn · (\d+ (s|min|h)( \d+ (s|min))?|1 day( \d+ h)?) left/, `its time left: ${first.text}`);
        await shot(p, "03-your-rooms");
        await p.close();
        listChecked = true;
      }
      await open(P, link);
      await P.page.waitForSelector(".room, .gameover");
      await P.page.waitForFunction(() => document.querySelector(".clocks, .gameover"));
      if (!tableChecked[P.name] && (await P.page.$(".deadlines .clock.running"))) {
        const own = await P.page.$eval(".deadlines .clock.running", (c) => ({ text: c.textContent, time: c.querySelector("time")?.getAttribute("datetime") }));
        assert.match(own.text, / left /, `the running side's time left: ${own.text}`);
        assert.ok(own.time && !Number.isNaN(Date.parse(own.time)), "its deadline as a <time>");
        await axe(P.page, `table-deadlines-${P.name}`, [P === A ? DESKTOP : PHONE]);
        await shot(P.page, `04-deadlines-${P.name}`);
        tableChecked[P.name] = true;
      }
      // the opponent is away between moves: that is how the game is played, no claim of the win
      assert.doesNotMatch(await P.page.textContent("main"), /claim the win/i, `${P.name}: no claim of the win offered in a room over days`);
      const made = await decideAll(P);
      visits[P.name]++;
      log(`${P.name}: visit ${visits[P.name]} from "${m.subject}" → ${made} decision(s)`);
      await close(P);
    };
    const deadlineEnd = Date.now() + 480_000;
    let over = null;
    while (!over) {
      if (Date.now() > deadlineEnd) throw new Error(`the game did not end: visits ${JSON.stringify(visits)}`);
      const s = await seatState(A);
      if (s.state === "over") {
        over = s;
        break;
      }
      const forA = mail.take(reminderFor(A));
      const forB = mail.take(reminderFor(B));
      if (imperialStopped) for (const m of forB) ignored.push({ at: Date.now(), m });
      if (forA.length) await visit(A, forA.at(-1));
      if (forB.length && !imperialStopped) await visit(B, forB.at(-1));
      if (!imperialStopped && visits.rebel >= MAIL_VISITS && visits.imperial >= MAIL_VISITS) {
        imperialStopped = Date.now();
        log("the imperial player stops answering");
      }
      await sleep(200);
    }
    const endedAt = Date.now();
    log(`game over: ${JSON.stringify({ forfeit_winner: over.forfeit_winner, forfeit_reason: over.forfeit_reason, outcome: over.outcome })}`);
    assert.ok(visits.rebel >= MAIL_VISITS && visits.imperial >= MAIL_VISITS, `visits from mails: ${JSON.stringify(visits)}`);
    assert.equal(over.forfeit_reason, "time", "the game ended on time");
    assert.equal(over.forfeit_winner, "rebel", "the imperial, who stopped answering, lost on time");
    // a real deadline: the imperial's last "your turn" mail came at least about a day before the end,
    // and a second reminder (time is running out) came for that same decision before it
    assert.ok(ignored.length >= 2, `the imperial got "your turn" and "time is running out" for its last decision: ${ignored.map((i) => i.m.subject).join(" / ")}`);
    const [lastTurn, runningOut] = ignored.slice(-2).map((i) => i.m);
    const day = DAY_SECS * 1000;
    assert.ok(endedAt - lastTurn.at >= 0.9 * day, `the loss came ${Math.round(endedAt - lastTurn.at)} ms after the decision's "your turn" mail (a day is ${day} ms)`);
    assert.ok(runningOut.at - lastTurn.at >= 0.7 * day, `"time is running out" came ${Math.round(runningOut.at - lastTurn.at)} ms after "your turn" (a fifth of ${day} ms before the deadline)`);
    for (const i of ignored) assert.ok(i.m.unsubscribe, "every reminder carries List-Unsubscribe");

    // both pages, opened again, say so
    await open(A, `${base}/r/${code}`);
    await A.page.waitForSelector(".gameover");
    assert.match(await A.page.textContent(".gameover"), /Imperial ran out of time\./);
    await shot(A.page, "05-over-rebel");
    await close(A);
    await open(B, `${base}/r/${code}`);
    await B.page.waitForSelector(".gameover");
    assert.match(await B.page.textContent(".gameover .headline"), /You lose/);
    await overflow(B.page, "game over phone");
    await close(B);

    assert.deepEqual(errors, [], "no page errors");
    assert.ok(tableChecked.rebel && tableChecked.imperial, "the deadlines were seen at both tables");
    const bad = AXE.filter((r) => r.bad.length);
    log(`axe-core: ${AXE.length} checks (${[...new Set(AXE.map((r) => r.screen))].join(", ")})`);
    assert.deepEqual(bad.map((r) => `${r.screen} ${r.lang} ${r.size}: ${r.bad.map((b) => b.id).join(", ")}`), [], "axe-core: no serious or critical violation");
    assert.deepEqual(OVERFLOW, [], "nothing overflows its viewport");
    assert.deepEqual(FOLD, [], "every decision of the desktop player on its first screen, nothing covering it");
  } finally {
    await browser.close().catch(() => {});
    await server.stop();
    await sink.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
