// What the end-to-end tests that play a game on a page share: following the page's WebSocket, what
// the page lets its player decide now, clicking a control and waiting for the server's answer, and a
// legal set of 4 characters (the server's rules decide which are legal).
import { until } from "./util.mjs";

/** Follows the frames of a page's WebSocket into `P`: `seq` seen, the answers to its actions, the
 *  last welcome and clock. */
export function trackFrames(page, P) {
  P.answers = [];
  P.seq = -1;
  page.on("websocket", (ws) =>
    ws.on("framereceived", ({ payload }) => {
      let m;
      try {
        m = JSON.parse(String(payload));
      } catch {
        return;
      }
      if (typeof m.seq === "number" && (m.type === "update" || m.type === "welcome")) P.seq = Math.max(P.seq, m.seq);
      if (m.type === "ack" || (m.type === "error" && m.action_id)) P.answers.push(m);
      if (m.type === "welcome") P.welcome = m;
      if (m.type === "clock" || m.clock) P.clock = m.clock ?? P.clock;
    }),
  );
}

/** What the page lets its player decide now (null: nothing). Run in the page. */
export function detect() {
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
  if ([...document.querySelectorAll(".table .actionbar button")].some((b) => !b.disabled)) return "struggle";
  return null;
}

/** Clicks `sel` (the first enabled match, or the n-th) and waits for the server's answer to the
 *  action it sends: true if accepted (a refusal is logged with `P.log`). */
export async function act(P, sel, { n = 0, sends = true } = {}) {
  const before = P.answers.length;
  const els = await P.page.$$(`${sel}:not([disabled])`);
  if (!els[n]) return false;
  await els[n].click();
  if (!sends) return true;
  const answer = await until(() => P.answers[before], `the answer to ${sel}`, 15_000);
  if (answer.type === "error") {
    (P.log ?? console.log)(`${P.name}: ${sel} refused (${answer.code})`);
    return false;
  }
  await until(() => P.seq >= answer.seq, `update ${answer.seq}`, 15_000);
  return true;
}

/** The k-th r-subset of n (lexicographic), for walking through character sets. */
function combination(n, r, k) {
  const all = [];
  const rec = (start, acc) => {
    if (acc.length === r) return void all.push(acc);
    for (let i = start; i < n; i++) rec(i + 1, [...acc, i]);
  };
  rec(0, []);
  return all[k % all.length];
}

/** Chooses 4 of the characters on the page: the first legal set in a fixed walk through the sets. */
export async function chooseCharacters(P) {
  for (let tries = 0; tries < 70; tries++) {
    for (const b of await P.page.$$('button.pick[aria-pressed="true"]')) await b.click();
    const n = (await P.page.$$("button.pick")).length;
    for (const i of combination(n, 4, tries)) await (await P.page.$$("button.pick"))[i].click();
    if (await P.page.$eval(".chars .actionbar button.primary", (b) => !b.disabled)) {
      if (await act(P, ".chars .actionbar button.primary")) return;
    }
  }
  throw new Error(`${P.name}: no legal set of 4 characters`);
}

/** Makes the decision `kind` (what `detect` found on P's page) the quickest way: 4 legal
 *  characters, the first strategy, a dialog's first choice, the top card of a struggle or a pass;
 *  a toast is closed. Returns `kind`. */
export async function decideKind(P, kind) {
  if (kind === "toast") {
    await P.page.click(".toast button").catch(() => {});
  } else if (kind === "chars") {
    await chooseCharacters(P);
  } else if (kind === "strategy") {
    await act(P, "button.strategy", { sends: false });
    await act(P, "button.strategy-confirm");
  } else if (kind === "dialog") {
    if (!(await P.page.$$eval('[role="dialog"] input[type="radio"]', (rs) => rs.some((r) => r.checked)))) {
      await P.page.locator('[role="dialog"] label:has(input[type="radio"])').first().click();
    }
    await act(P, '[role="dialog"] button.primary');
  } else if (kind === "struggle") {
    // the quickest way through a struggle: play the top card while allowed, else pass
    if (!(await act(P, ".table .actionbar button.primary"))) await act(P, ".table .actionbar button");
  }
  return kind;
}

/** Selects language `l` in the page's picker (if it has one) and waits until the page shows it
 *  (once its pack has loaded, web-client/src/i18n/packs.ts, it marks `<html lang>`). */
export async function setLang(page, l) {
  const select = page.locator("select[aria-label]").first();
  if ((await select.count()) === 0) return;
  await select.selectOption(l);
  await page.waitForFunction((l) => document.documentElement.lang === l, l);
}
