// End-to-end test of friends, challenges and ratings (issue 30; proto/PROTOCOL.md, *Friends and
// challenges*, *Ratings*; web-client/src/ui/social/): three accounts, each in a browser context of its
// own with a DevTools virtual authenticator (as accounts.test.mjs registers them). A asks B to be
// friends by username, B accepts; A challenges B from the friends list to a rated live game (5 min +
// 5 s); B's page shows the challenge without a reload (the 15 s poll of the challenges) and B accepts
// (the room is made with both seats kept; B's page takes its seat and goes there); A's page says the
// challenge was accepted and takes A there; they play the game to its end through the pages (decide.mjs). Both see
// each player's rating change on the game-over panel, their page lists one rated game, the friends
// page's head to head counts one game. The third account, C, is nobody's friend: its friends list
// shows nothing of A or B, and the server refuses it their record. axe-core and the 375 px overflow
// check run on the friends page, a player's page and the leaderboard in the three languages.
//
// Plain JavaScript ESM run by `node --test` (tests/e2e/run.sh, EVR_E2E_ONLY=friends). It starts its own
// server (EVR_FRIENDS_SERVER_BIN, default target/release/evr-server) on a free loopback port with
// `--public-origin http://localhost:PORT` (passkeys need a host name and a secure context) and the
// deals' fixed seed. No sleeps for timing: every wait is for a condition, each bounded.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { DESKTOP, PHONE, screenChecks } from "./checks.mjs";
import { decideKind, detect, trackFrames } from "./decide.mjs";
import { child, freePort, healthy, until } from "./util.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = resolve(HERE, "../..");
const ARTIFACTS = process.env.E2E_ARTIFACTS ?? join(HERE, "artifacts");
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const BIN = process.env.EVR_FRIENDS_SERVER_BIN ?? join(REPO, "target/release/evr-server");
const DEAL_SEED = Number(process.env.E2E_DEAL_SEED ?? 20261126) >>> 0;

const t0 = Date.now();
const log = (msg) => console.log(`[friends +${((Date.now() - t0) / 1000).toFixed(1)}s] ${msg}`);

// ---------------------------------------------------------------- page checks
const { axe, AXE, OVERFLOW } = screenChecks(log);

async function shot(page, name) {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, `friends-${name}.png`), fullPage: true }).catch(() => {});
}

// ---------------------------------------------------------------- playing on a page
/** Makes the decision the page offers; returns what it was (null: nothing to decide now). */
async function decideOnce(P) {
  const kind = await P.page.evaluate(detect);
  // the ratings beside the names, as the table first shows them
  if (kind === "struggle") P.ratingsAtTable ??= await P.page.$$eval(".strip .prating", (s) => s.map((e) => e.textContent));
  return decideKind(P, kind);
}

/** Plays both pages until both show the game over (bounded). */
async function playToTheEnd(players, ms) {
  const end = Date.now() + ms;
  let decisions = 0;
  for (;;) {
    let over = 0;
    for (const P of players) {
      await P.page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      const kind = await decideOnce(P);
      if (kind === "over") over++;
      else if (kind && kind !== "toast") decisions++;
    }
    if (over === players.length) return decisions;
    if (Date.now() > end) throw new Error(`the game did not end within ${ms} ms (${decisions} decisions)`);
    if (decisions === 0) {
      // nothing to decide yet on either page: wait for one of them to offer something
      await until(
        async () => {
          for (const P of players) if (await P.page.evaluate(detect)) return true;
          return false;
        },
        "a decision on either page",
        30_000,
      );
    }
  }
}

// ---------------------------------------------------------------- the test
test("friends, a rated challenge played to its end, ratings and the head to head; a stranger sees nothing", { timeout: 480_000 }, async () => {
  assert.ok(existsSync(BIN), `${BIN} missing: build the server first (README.md)`);
  const dataDir = mkdtempSync(join(tmpdir(), "evr-friends-data-"));
  const port = await freePort();
  const base = `http://localhost:${port}`;
  const server = child(join(ARTIFACTS, "friends-server.log"), BIN, [
    "--bind", `127.0.0.1:${port}`,
    "--data-dir", dataDir,
    "--messages-per-second", "1000",
    "--public-origin", base,
    "--test-fixed-seed", String(DEAL_SEED),
  ]);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
  const errors = [];
  try {
    await healthy(`http://127.0.0.1:${port}`);

    /** A player: a browser context with a virtual authenticator, registered as `username`. */
    const account = async (username, viewport) => {
      const ctx = await browser.newContext({ viewport, locale: "en-GB" });
      const page = await ctx.newPage();
      page.on("pageerror", (e) => errors.push(`${username}: ${e.message}`));
      page.on("console", (m) => {
        if (m.type() === "error" && m.text().includes("Content Security Policy")) errors.push(`${username}: ${m.text()}`);
      });
      const cdp = await ctx.newCDPSession(page);
      await cdp.send("WebAuthn.enable");
      await cdp.send("WebAuthn.addVirtualAuthenticator", {
        options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
      });
      const P = { name: username, ctx, page, log };
      trackFrames(page, P);
      await page.goto(`${base}/#/account`);
      await page.waitForSelector("#account-username");
      await page.fill("#account-username", username);
      await page.click("form button.primary[type=submit]");
      await page.waitForSelector("#passkeys-h", { timeout: 20_000 });
      log(`${username} registered with a passkey`);
      return P;
    };
    const api = (P, path, init) =>
      P.page.evaluate(
        async ([path, init]) => {
          const r = await fetch(path, init);
          return { status: r.status, body: await r.json().catch(() => null) };
        },
        [path, init ?? {}],
      );
    /** The friends page, loaded afresh (a `goto` to the same fragment would not reload it). */
    const friendsPage = async (P) => {
      await P.page.goto(`${base}/#/friends`);
      await P.page.reload();
      await P.page.waitForSelector("#friends-h");
    };

    const A = await account("Ana_f", DESKTOP);
    const B = await account("Ben_f", PHONE);
    const C = await account("Cy_f", DESKTOP);

    // -- the way in: the landing page, signed in
    await A.page.goto(`${base}/`);
    await A.page.waitForSelector('.social-entry a[href="/#/friends"]');
    await Promise.all([A.page.waitForSelector("#friends-h"), A.page.click('.social-entry a[href="/#/friends"]')]);

    // -- A asks B by username; B accepts
    await A.page.fill("input[name=friend_username]", "Ben_f");
    await A.page.click("form.add-friend button[type=submit]");
    await A.page.waitForFunction(() => document.querySelector("[role=status]")?.textContent.includes("Friend request sent to Ben_f"));
    assert.match(await A.page.textContent("[aria-labelledby=outgoing-h]"), /Ben_f/, "A's sent request is listed");
    await friendsPage(B);
    await B.page.waitForSelector("[aria-labelledby=incoming-h] .request-list button.primary");
    assert.match(await B.page.textContent("[aria-labelledby=incoming-h]"), /Ana_f/);
    await B.page.click("[aria-labelledby=incoming-h] .request-list button.primary");
    await B.page.waitForSelector(".friend-list .friend");
    assert.match(await B.page.textContent(".friend-list"), /Ana_f/);
    // presence, shown to friends: A made requests a moment ago
    assert.match(await B.page.textContent(".friend-list .presence"), /online|at a table/, "B sees A's presence");
    await axe(B.page, "friends page (phone)", "#friends-h");
    await shot(B.page, "01-friends-B");
    log("A and B are friends");

    // -- B waits on the landing page; A challenges B: a rated live game, 5 min + 5 s
    await B.page.goto(`${base}/`);
    await B.page.waitForSelector('.social-entry a[href="/#/friends"]');
    const bUrl = B.page.url();
    await friendsPage(A);
    await A.page.waitForSelector(".friend-list .friend");
    await A.page.locator(".friend-actions button", { hasText: "Challenge" }).first().click();
    await A.page.waitForSelector(".challenge-form");
    // A plays the Rebels (a random side would make each run a different game despite the fixed deals)
    await A.page.click(".f-challenge_side .opt-rebel");
    await A.page.click(".f-challenge_clock .opt-custom");
    await A.page.fill("input[name=challenge_minutes]", "5");
    await A.page.fill("input[name=challenge_increment]", "5");
    assert.ok(await A.page.isChecked("input[name=challenge_rated]"), "a challenge is rated unless unticked");
    await axe(A.page, "challenge form", ".challenge-form");
    await A.page.click(".challenge-form button[type=submit]");
    await A.page.waitForSelector(".challenge-list.outgoing li");
    assert.match(await A.page.textContent(".challenge-list.outgoing"), /You challenged Ben_f/);
    assert.match(await A.page.textContent(".challenge-list.outgoing"), /5 min \+ 5 s · rated/);
    log("A challenged B");

    // -- B's page, opened before, shows it without a reload and B accepts: told by the account's
    // event stream (the slow poll beside it asks every 60 s, after this wait)
    await B.page.waitForSelector(".challenge-notice", { timeout: 20_000 });
    assert.equal(B.page.url(), bUrl, "B's page was not reloaded");
    assert.match(await B.page.textContent(".challenge-notice"), /Ana_f challenges you/);
    await shot(B.page, "02-notice-B");
    await Promise.all([B.page.waitForSelector(".challenge-list.incoming li"), B.page.click(".challenge-notice a")]);
    assert.match(await B.page.textContent(".challenge-list.incoming"), /rated/);
    await Promise.all([B.page.waitForURL(/\/r\/[0-9A-Z]+$/, { timeout: 20_000 }), B.page.click(".challenge-list.incoming button.primary")]);
    const code = new URL(B.page.url()).pathname.split("/")[2];
    log(`B accepted: room ${code}`);

    // -- A's page, still open, says so at its next poll; A goes to the room (the account keeps its seat)
    await A.page.waitForFunction(() => document.querySelector(".challenge-notice")?.textContent.includes("Ben_f accepted your challenge"), null, { timeout: 40_000 });
    await Promise.all([A.page.waitForURL(new RegExp(`/r/${code}$`), { timeout: 20_000 }), A.page.click(".challenge-notice button.primary")]);
    await A.page.waitForSelector(".room");
    await B.page.waitForSelector(".room");
    for (const P of [A, B]) {
      await P.page.waitForFunction(() => document.querySelector("header")?.textContent.includes("Rated game"));
    }

    // -- they play it to its end; at the table (from the first struggle) each name has its rating
    const decisions = await playToTheEnd([A, B], 300_000);
    log(`the game ended after ${decisions} decisions`);
    for (const P of [A, B]) {
      assert.deepEqual(P.ratingsAtTable, ["1500?", "1500?"], `${P.name}: each new player's provisional rating beside the name`);
    }
    const changes = {};
    for (const P of [A, B]) {
      await P.page.waitForSelector(".rating-changes li", { timeout: 20_000 });
      const lines = await P.page.$$eval(".rating-changes li", (ls) => ls.map((l) => l.textContent));
      assert.equal(lines.length, 2, `${P.name}: both players' changes`);
      for (const l of lines) assert.match(l, /\d+\??\s\((\+|\u2212)\d+\)/, `${P.name}: a signed change: ${l}`);
      changes[P.name] = lines;
      await shot(P.page, `03-over-${P.name}`);
    }
    assert.deepEqual(changes[A.name], changes[B.name], "both see the same changes");
    log(`the changes: ${changes[A.name].join(" · ")}`);

    // -- their pages: one rated game each
    for (const P of [A, B]) {
      await P.page.goto(`${base}/#/players/${P.name}`);
      await P.page.waitForSelector(".rated-games tbody tr", { timeout: 20_000 });
      assert.equal(await P.page.locator(".rated-games tbody tr").count(), 1, `${P.name}: one rated game on the page`);
      assert.match(await P.page.textContent(".social-page"), /1 rated game/);
      assert.ok(await P.page.$(".rating-chart svg polyline"), `${P.name}: the history's chart`);
    }
    await axe(A.page, "player page", ".rated-games");
    await shot(A.page, "04-player-A");

    // -- the head to head: one game, with its replay
    await friendsPage(A);
    await A.page.waitForSelector(".friend-list .friend");
    await A.page.locator(".friend-actions button", { hasText: "Head to head" }).first().click();
    await A.page.waitForSelector(".head-to-head .games-together li");
    assert.equal(await A.page.locator(".head-to-head .games-together li").count(), 1, "one game together");
    assert.ok(await A.page.$(`.head-to-head a[href="/r/${code}/games/1"]`), "its replay linked");
    const record = await api(A, "/api/account/friends/Ben_f/record");
    const total = (r) => r.won + r.lost + r.drawn + r.unfinished;
    assert.equal(total(record.body.as_rebel) + total(record.body.as_imperial), 1, "the record counts one game");
    await axe(A.page, "friends page with the head to head", ".head-to-head .games-together");
    log("the head to head shows the game");

    // -- the stranger: nothing of A or B
    await friendsPage(C);
    await C.page.waitForFunction(() => document.querySelector("#friends-h")?.closest("section")?.textContent.includes("No friends yet"));
    const cText = await C.page.textContent("main");
    assert.doesNotMatch(cText, /Ana_f|Ben_f/, "C's friends page shows nothing of A or B");
    const cList = await api(C, "/api/account/friends");
    assert.deepEqual(cList.body, { friends: [], incoming: [], outgoing: [], blocked: [] }, "C's list is empty");
    for (const other of ["Ana_f", "Ben_f"]) {
      const refused = await api(C, `/api/account/friends/${other}/record`);
      assert.ok(refused.status >= 400, `C may not read ${other}'s record (${refused.status})`);
      assert.equal(refused.body?.code, "not_friends");
    }
    await C.page.goto(`${base}/#/leaderboard`);
    await C.page.waitForSelector(".side-edge");
    await axe(C.page, "leaderboard", ".side-edge");
    log("C sees neither's presence and may not read their record");

    assert.deepEqual(errors, [], "no page error, nothing blocked by the Content-Security-Policy");
    assert.deepEqual(AXE.flatMap((a) => a.bad.map((b) => `${a.screen} ${a.lang} ${a.size}: ${b.id}`)), [], "axe: no serious or critical finding");
    assert.deepEqual(OVERFLOW, [], "nothing wider than the screen");
  } finally {
    await browser.close().catch(() => {});
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
