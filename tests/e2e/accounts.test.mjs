// End-to-end test of accounts (proto/PROTOCOL.md, *Accounts*): a player starts a game against the
// computer without an account, keeps it by creating an account with a passkey, gives the account an
// email address and confirms it by the link mailed to it; signs in on a second device with that
// passkey, finds the game in the list there and moves in it; from the second device signs the first
// out (the first's next account request is refused). A third device, without any passkey, asks for an
// email sign-in link, opens the mailed link, presses its button, finds the game in its list and moves
// in it; a fourth signs in by passkey autofill. The second device downloads the account's data, leaves
// the account's address for a new room's reminders (no confirmation mail needed) and deletes the
// account. Passkeys come from Chromium's DevTools virtual authenticator (one per browser context: a
// "device"); the second and fourth devices' are given a copy of a passkey, as a synced passkey would
// be. The mails are taken from a real SMTP server on loopback (mail.mjs).
// axe-core and the 375 px overflow check run on the account's screens.
//
// Plain JavaScript ESM run by `node --test` (tests/e2e/run.sh, EVR_E2E_ONLY=accounts). It starts the
// SMTP sink (mail.mjs, on EVR_SINK_PYTHON: a Python with aiosmtpd) and its own server
// (EVR_ACCOUNTS_SERVER_BIN, default target/release/evr-server) on a free loopback port with
// `--public-origin http://localhost:PORT` and `--smtp-url` to the sink: passkeys need a host name (not
// an IP address) and a secure context, which http://localhost is.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { DESKTOP, PHONE, screenChecks } from "./checks.mjs";
import { act, chooseCharacters, detect, trackFrames } from "./decide.mjs";
import { Mailbox, startSink, to } from "./mail.mjs";
import { child, freePort, healthy, sleep, until } from "./util.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = resolve(HERE, "../..");
const ARTIFACTS = process.env.E2E_ARTIFACTS ?? join(HERE, "artifacts");
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const BIN = process.env.EVR_ACCOUNTS_SERVER_BIN ?? join(REPO, "target/release/evr-server");
const DEAL_SEED = Number(process.env.E2E_DEAL_SEED ?? 20261126) >>> 0;
const USERNAME = "Ana_e2e";
const EMAIL = "ana.e2e@example.org";

const t0 = Date.now();
const log = (msg) => console.log(`[accounts +${((Date.now() - t0) / 1000).toFixed(1)}s] ${msg}`);

// ---------------------------------------------------------------- page checks
const { axe, AXE, OVERFLOW } = screenChecks(log);

async function shot(page, name) {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, `accounts-${name}.png`), fullPage: true }).catch(() => {});
}

// ---------------------------------------------------------------- moving in a game
/** Waits for a decision on the page and makes it; returns what it was. */
async function decide(P) {
  const kind = await until(async () => {
    const k = await P.page.evaluate(detect);
    if (k !== "toast") return k;
    await P.page.click(".toast button").catch(() => {});
    return null;
  }, `a decision for ${P.name}`, 30_000);
  if (kind === "chars") {
    await chooseCharacters(P);
    return kind;
  }
  if (kind === "strategy") {
    await act(P, "button.strategy", { sends: false });
    assert.ok(await act(P, "button.strategy-confirm"), "the strategy is taken");
    return kind;
  }
  if (kind === "dialog") {
    if (!(await P.page.$$eval('[role="dialog"] input[type="radio"]', (rs) => rs.some((r) => r.checked)))) {
      await P.page.locator('[role="dialog"] label:has(input[type="radio"])').first().click();
    }
    assert.ok(await act(P, '[role="dialog"] button.primary'), "the choice is taken");
    return kind;
  }
  if (kind === "struggle") {
    if (!(await act(P, ".table .actionbar button.primary"))) assert.ok(await act(P, ".table .actionbar button"), "a move is taken");
    return kind;
  }
  return kind;
}

// ---------------------------------------------------------------- the test
test("a game kept by an account: a passkey, an email address, more devices, signing out, the data, deletion", { timeout: 300_000 }, async () => {
  assert.ok(existsSync(BIN), `${BIN} missing: build the server first (README.md)`);
  const dataDir = mkdtempSync(join(tmpdir(), "evr-accounts-data-"));
  const sink = await startSink(join(ARTIFACTS, "accounts-smtp-sink.log"));
  const port = await freePort();
  const base = `http://localhost:${port}`;
  const server = child(join(ARTIFACTS, "accounts-server.log"), BIN, [
    "--bind", `127.0.0.1:${port}`,
    "--data-dir", dataDir,
    "--messages-per-second", "1000",
    "--public-origin", base,
    "--smtp-url", `smtp://127.0.0.1:${sink.port}`,
    "--test-fixed-seed", String(DEAL_SEED),
  ]);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
  const errors = [];
  try {
    await healthy(`http://127.0.0.1:${port}`);
    const mail = new Mailbox(sink.dir);
    /** The link of the mail to the account's address that holds `path` (waited for). */
    const mailedLink = async (path, what) => {
      const m = await mail.wait(to(EMAIL), what, 20_000);
      const link = m.links.find((l) => l.startsWith(`${base}${path}`));
      assert.ok(link, `${what} holds a link ${path}…: ${m.text.slice(0, 300)}`);
      return link;
    };

    /** A device: a browser context of its own with a virtual authenticator (a platform passkey store). */
    const device = async (name, viewport) => {
      const ctx = await browser.newContext({ viewport, locale: "en-GB", acceptDownloads: true });
      const page = await ctx.newPage();
      page.on("pageerror", (e) => errors.push(`${name}: ${e.message}`));
      page.on("console", (m) => {
        if (m.type() === "error" && m.text().includes("Content Security Policy")) errors.push(`${name}: ${m.text()}`);
      });
      const cdp = await ctx.newCDPSession(page);
      await cdp.send("WebAuthn.enable");
      const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
        options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
      });
      const P = { name, ctx, page, cdp, authenticatorId, log };
      trackFrames(page, P);
      return P;
    };
    const session = (P) => P.page.evaluate(() => fetch("/api/session").then((r) => r.json()));
    /** A device signed in that does not hold the room: the landing page lists the account's one room;
     *  opening it takes a token of the device's own, and the device moves in it. `listed`: checks of
     *  the list before the room is opened. */
    const moveFromList = async (P, listed = async () => {}) => {
      await P.page.goto(`${base}/`);
      const row = P.page.locator(".room-row", { has: P.page.locator(".room-link") }).filter({ hasText: /vs/ });
      await row.first().waitFor({ timeout: 20_000 });
      assert.equal(await P.page.locator(".room-row").count(), 1, "the account's one room, listed once");
      await listed();
      await Promise.all([P.page.waitForURL(new RegExp(`/r/${code}$`)), P.page.click(".room-row .room-link")]);
      assert.ok(await P.page.evaluate((c) => localStorage.getItem(`evr.token.${c}`), code), `the ${P.name} keeps a token of its own`);
      const moved = await decide(P);
      log(`the ${P.name} moved in the room (${moved})`);
    };

    // -- device A plays against the computer, no account
    const A = await device("first device", DESKTOP);
    await A.page.goto(`${base}/`);
    await A.page.waitForSelector(".account-entry");
    assert.match(await A.page.textContent(".account-entry"), /Keep your games: create an account with a passkey/);
    await axe(A.page, "landing with the account entry", ".account-entry");
    await shot(A.page, "00-landing");
    await A.page.click(".f-opponent .opt-easy");
    await A.page.click("form.create button.primary[type=submit]");
    await A.page.waitForURL(/\/r\/[0-9A-Z]+$/);
    const code = new URL(A.page.url()).pathname.split("/")[2];
    const first = await decide(A);
    log(`room ${code} against the computer; the first device made its first decision (${first})`);

    // -- A keeps it: an account with a passkey, the device's seats kept at once
    await A.page.goto(`${base}/`);
    await A.page.click(".account-entry a.primary");
    await A.page.waitForSelector("#account-username");
    await A.page.waitForSelector("#account-link-email");
    await axe(A.page, "account page, signed out", "#account-username");
    await shot(A.page, "01-signed-out");
    await A.page.fill("#account-username", "x");
    await A.page.click("form button.primary[type=submit]");
    assert.match(await A.page.textContent("[role=alert]"), /2 to 20/, "a too short username is refused before any request");
    await A.page.fill("#account-username", USERNAME);
    await A.page.click("form button.primary[type=submit]");
    await A.page.waitForSelector("#passkeys-h", { timeout: 20_000 });
    assert.match(await A.page.textContent("[role=status]"), /1 game kept in your account/);
    assert.equal((await session(A)).account?.username, USERNAME);
    log(`account ${USERNAME} registered with a passkey; the room is kept`);

    // -- A gives the account an email address; the mailed link's page confirms it at a press
    const emailSection = "form[aria-labelledby=email-h]";
    await A.page.fill("#account-email", EMAIL);
    await A.page.click(`${emailSection} button[type=submit]`);
    await A.page.waitForFunction(
      ([sel, email]) => document.querySelector(sel)?.textContent.includes(`${email} (not confirmed yet`),
      [emailSection, EMAIL],
    );
    assert.match(await A.page.textContent("[role=status]"), /A confirmation link was mailed to this address/);
    await axe(A.page, "account page, signed in", "#passkeys-h");
    await shot(A.page, "02-signed-in");
    const confirmLink = await mailedLink("/#/account/confirm/", "the address's confirmation mail");
    await A.page.goto(confirmLink);
    await A.page.waitForSelector("#link-h");
    await axe(A.page, "the mailed confirmation link's page", "#link-h ~ button.primary");
    await A.page.click("#link-h ~ button.primary");
    await A.page.waitForSelector("#link-h ~ [role=status]");
    assert.match(await A.page.textContent("#link-h ~ [role=status]"), /Your email address is confirmed/);
    assert.equal(new URL(A.page.url()).hash, "#/account", "the used secret left the address bar");
    await A.page.click("#link-h ~ p button");
    await A.page.waitForFunction(
      ([sel, email]) => document.querySelector(sel)?.textContent.includes(`${email} (confirmed)`),
      [emailSection, EMAIL],
    );
    log(`the account's address ${EMAIL} confirmed by the mailed link`);

    // -- device B gets the passkey (as a synced passkey would arrive) and signs in with it
    const { credentials } = await A.cdp.send("WebAuthn.getCredentials", { authenticatorId: A.authenticatorId });
    assert.equal(credentials.length, 1, "the first device made one passkey");
    const B = await device("second device", PHONE);
    await B.cdp.send("WebAuthn.addCredential", { authenticatorId: B.authenticatorId, credential: credentials[0] });
    // (no passkey autofill on this device: the virtual authenticator would answer it at once, and
    // this device signs in with the button; a fourth device signs in by autofill below)
    await B.page.addInitScript(() => {
      PublicKeyCredential.isConditionalMediationAvailable = async () => false;
    });
    await B.page.goto(`${base}/#/account`);
    await B.page.waitForSelector("#account-sign-in-name");
    await B.page.click("#sign-in-h ~ button");
    await B.page.waitForSelector("#passkeys-h", { timeout: 20_000 });
    log("the second device signed in with its copy of the passkey (the button)");
    assert.equal((await session(B)).account?.username, USERNAME);

    // -- B's list shows the game; opening it takes a token of B's own, and B moves in it
    await moveFromList(B, async () => {
      await axe(B.page, "landing signed in with the account's room", ".account-entry");
      await shot(B.page, "03-phone-landing-signed-in");
    });

    // -- B signs A out; A's next account request is refused
    await B.page.goto(`${base}/#/account`);
    await B.page.waitForSelector("#devices-h");
    await A.page.goto(`${base}/#/account`);
    await A.page.waitForSelector("#data-h");
    await B.page.reload();
    await B.page.waitForSelector("#devices-h ~ ul button.link");
    await B.page.click("#devices-h ~ ul button.link");
    await until(async () => (await B.page.$$("#devices-h ~ ul li")).length === 1, "one signed-in device left", 10_000);
    await A.page.click("#data-h ~ button");
    await A.page.waitForSelector("[role=alert]");
    assert.match(await A.page.textContent("[role=alert]"), /not signed in/);
    assert.equal(await A.page.evaluate(() => fetch("/api/account").then((r) => r.status)), 401);
    assert.equal((await session(A)).account, null);
    log("the first device was signed out from the second; its next request was refused");

    // -- a third device, with no passkey at all, signs in by an email sign-in link: it asks for one,
    // the mail comes, its link opens the page (a new load, as from a mail program) and the button
    // signs it in; it finds the game in its list and moves in it
    const C = await device("third device", PHONE);
    await C.page.goto(`${base}/#/account`);
    await C.page.waitForSelector("#account-link-email");
    await C.page.fill("#account-link-email", EMAIL);
    await C.page.click("#account-link-email ~ button[type=submit]");
    await C.page.waitForSelector("#sign-in-h ~ form [role=status]");
    assert.match(await C.page.textContent("#sign-in-h ~ form [role=status]"), /If an account has this address, a link is on its way/);
    assert.equal((await session(C)).account, null);
    assert.equal(await C.page.locator("[role=alert]").count(), 0, `no passkey to offer is no failure: ${await C.page.locator("[role=alert]").allTextContents()}`);
    const signInLink = await mailedLink("/#/account/sign-in/", "the sign-in mail");
    await C.page.goto("about:blank");
    await C.page.goto(signInLink);
    await C.page.waitForSelector("#link-h ~ button.primary");
    await axe(C.page, "the mailed sign-in link's page", "#link-h ~ button.primary");
    await shot(C.page, "04-phone-sign-in-link");
    await C.page.click("#link-h ~ button.primary");
    await C.page.waitForSelector("#link-h ~ [role=status]");
    assert.match(await C.page.textContent("#link-h ~ [role=status]"), new RegExp(USERNAME));
    assert.equal((await session(C)).account?.username, USERNAME);
    const { credentials: none } = await C.cdp.send("WebAuthn.getCredentials", { authenticatorId: C.authenticatorId });
    assert.equal(none.length, 0, "the third device has no passkey");
    log("a third device signed in by an email sign-in link");
    await moveFromList(C);
    await C.ctx.close();

    // -- a fourth device signs in by passkey autofill (the virtual authenticator answers the page's
    // conditional request at once). Its copy of the passkey is the second device's: webauthn-rs
    // refuses a passkey whose signature counter went back (a cloned authenticator), and the virtual
    // authenticator counts
    const copied = await B.cdp.send("WebAuthn.getCredentials", { authenticatorId: B.authenticatorId });
    const D = await device("fourth device", PHONE);
    await D.cdp.send("WebAuthn.addCredential", { authenticatorId: D.authenticatorId, credential: copied.credentials[0] });
    await D.page.goto(`${base}/#/account`);
    await D.page.waitForSelector("#passkeys-h", { timeout: 20_000 });
    assert.equal((await session(D)).account?.username, USERNAME);
    await D.ctx.close();
    log("a fourth device signed in by passkey autofill");

    // -- B downloads the account's data
    await B.page.goto(`${base}/#/account`);
    await B.page.waitForSelector("#data-h ~ button");
    const [download] = await Promise.all([B.page.waitForEvent("download"), B.page.click("#data-h ~ button")]);
    const file = join(mkdtempSync(join(tmpdir(), "evr-accounts-export-")), download.suggestedFilename());
    await download.saveAs(file);
    const data = JSON.parse(readFileSync(file, "utf8"));
    assert.equal(data.account.username, USERNAME);
    assert.equal(data.rooms.length, 1, "the export holds the kept room");
    rmSync(dirname(file), { recursive: true, force: true });
    log(`the data downloaded (${download.suggestedFilename()})`);

    // -- reminders to the account's address: B, signed in, creates a room over days; its reminders
    // form offers the account's confirmed address, and leaving it sends no confirmation mail
    await B.page.goto(`${base}/`);
    await B.page.click(".f-clock .opt-days");
    await B.page.click("form.create button.primary[type=submit]");
    await B.page.waitForURL(/\/r\/[0-9A-Z]+$/);
    await B.page.waitForSelector(".reminders .remind-account");
    assert.equal(await B.page.inputValue(".reminders input[type=email]"), EMAIL, "the account's address filled in");
    assert.match(await B.page.textContent(".remind-account"), /Your account's address: no confirmation needed/);
    await axe(B.page, "reminders with the account's address", ".reminders .remind-account");
    await shot(B.page, "05-phone-reminders-account");
    await B.page.click(".reminders button.remind-send");
    await B.page.waitForSelector(".remind-state.on");
    assert.match(await B.page.textContent(".remind-state.on"), /Reminders for this room go to a…@example\.org/);
    await sleep(500);
    assert.deepEqual(mail.take(to(EMAIL)).map((m) => m.subject), [], "no confirmation mail to the account's address");
    log("reminders for a room over days went to the account's address with no confirmation mail");

    // -- B deletes the account: a wrong username first, then the right one
    await B.page.goto(`${base}/#/account`);
    await B.page.waitForSelector("#account-delete");
    await B.page.fill("#account-delete", `${USERNAME}x`);
    await B.page.click(".delete-account button[type=submit]");
    assert.match(await B.page.textContent(".delete-account [role=alert]"), /nothing was deleted/);
    assert.equal((await session(B)).account?.username, USERNAME);
    await B.page.fill("#account-delete", USERNAME);
    await Promise.all([B.page.waitForURL(`${base}/`), B.page.click(".delete-account button[type=submit]")]);
    assert.equal((await session(B)).account, null);
    await B.page.waitForSelector(".account-entry a.primary");
    // the game stays on the devices that hold its seat
    assert.ok(await B.page.evaluate((c) => localStorage.getItem(`evr.token.${c}`), code));
    log("the account was deleted; the second device is signed out");

    log(`${AXE.length} axe checks`);
    assert.deepEqual(AXE.filter((a) => a.bad.length), [], "axe: no serious or critical violations");
    assert.deepEqual(OVERFLOW, [], "no horizontal overflow");
    assert.deepEqual(errors, [], "no page errors");
  } finally {
    await browser.close();
    await server.stop();
    await sink.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
