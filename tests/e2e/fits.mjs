// Page checks of what fits where (issue "fits and reads for everyone"), run in the page by
// e2e.test.mjs at the moments they are about (`page.evaluate(fn)`): each returns its problems as
// sentences (empty: fine). Plain browser JavaScript, no imports: every function is serialized.

/** Desktop landing: creating a room and entering one both on the first screen (no scrolling). */
export function landingFits(phone = false) {
  const H = window.innerHeight;
  scrollTo(0, 0);
  const out = [];
  // a phone's first screen: the friend's code fields first, then the create form's heading (the
  // form itself is a scroll down); a desktop's: both forms whole
  const wanted = [
    ["the create form's heading", "#create-h"],
    ...(phone ? [] : [["the Create room button", "form.panel button.primary[type=submit]"]]),
    ["the enter form's heading", "#enter-h"],
    ["the room code field", "input#code"],
    ["the join code field", "input#join-code"],
    ["the enter form's button", "form[aria-labelledby=enter-h] button[type=submit]"],
  ];
  for (const [what, sel] of wanted) {
    const el = document.querySelector(sel);
    if (!el) out.push(`landing: ${what} (${sel}) is missing`);
    else if (el.getBoundingClientRect().bottom > H + 0.5) out.push(`landing: ${what} is below the first screen (bottom ${Math.round(el.getBoundingClientRect().bottom)} > ${H})`);
  }
  return out;
}

/** Phone planning, when a choice is due: every strategy and the Confirm button are on screen without
 *  the player scrolling (the page brings the decision into view itself). */
export function decisionInView(kind = "strategy") {
  // what is under the sticky header is not on screen
  const top = document.querySelector("header.topbar")?.getBoundingClientRect().bottom ?? 0;
  const H = window.innerHeight;
  const out = [];
  let els;
  if (kind === "dialog") {
    // a pending choice (one that may open the Dominance phase, ~2,000 px down the phone's column):
    // its title and its first option are on screen; the rest of a long list is a scroll away
    const dlg = document.querySelector(".board [role=dialog]");
    if (!dlg) return ["dialog: no pending choice"];
    els = [dlg.querySelector("h2"), dlg.querySelector("label.option")].filter(Boolean);
  } else {
    const block = document.querySelector(".strategy-block.due");
    els = block ? [...block.querySelectorAll("button.strategy, button.strategy-confirm")] : [];
    if (els.length === 0) return ["planning: no strategy to choose"];
  }
  for (const el of els) {
    const r = el.getBoundingClientRect();
    if (r.top < top - 0.5 || r.bottom > H + 0.5) out.push(`${kind === "dialog" ? "pending choice" : "planning"}: "${el.textContent.trim().slice(0, 30)}" is off screen (top ${Math.round(r.top)}, bottom ${Math.round(r.bottom)}; screen ${Math.round(top)}–${H})`);
  }
  return out;
}

/** Phone struggle: every control the player may use can be scrolled to where the fixed action bar
 *  does not cover it, and at the end of the page the bar covers nothing of their strip. */
export function reachableAboveBar() {
  const bar = document.querySelector(".actionbar");
  if (!bar || getComputedStyle(bar).position !== "fixed") return [];
  const y0 = scrollY;
  const out = [];
  try {
    const controls = [...document.querySelectorAll(".table .card-btn, .table .target-btn, .table [role=dialog] input, .table [role=dialog] button")].filter((c) => !c.disabled && c.getBoundingClientRect().width > 0);
    for (const c of controls) {
      c.scrollIntoView({ block: "nearest" });
      const r = c.getBoundingClientRect();
      const hit = document.elementFromPoint(Math.min(Math.max(r.left + r.width / 2, 0), innerWidth - 1), r.top + r.height / 2);
      const target = c.matches("input") ? c.closest("label") ?? c : c;
      if (!hit || !(target.contains(hit) || hit.contains(target))) out.push(`phone: "${(c.textContent || c.getAttribute("aria-label") || c.tagName).trim().slice(0, 30)}" is covered by ${hit ? hit.className || hit.tagName : "nothing on screen"} when scrolled to`);
    }
    scrollTo(0, document.documentElement.scrollHeight);
    const barTop = bar.getBoundingClientRect().top;
    const mine = [...document.querySelectorAll(".strip")].pop();
    if (mine && mine.getBoundingClientRect().bottom > barTop + 0.5) out.push(`phone: at the end of the page the action bar covers the player's strip (strip bottom ${Math.round(mine.getBoundingClientRect().bottom)}, bar top ${Math.round(barTop)})`);
  } finally {
    scrollTo(0, y0);
  }
  return out;
}

/** Card names: each piece between two break points (spans made by Card.tsx) on one line, and no name
 *  wider than its card. */
export function nameBreaks() {
  const out = [];
  for (const name of document.querySelectorAll(".card .name")) {
    if (name.getBoundingClientRect().width === 0) continue;
    for (const piece of name.children) {
      const tops = new Set([...piece.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
      if (tops.size > 1) out.push(`card name "${name.textContent}" breaks inside "${piece.textContent}" (${document.documentElement.lang})`);
    }
    if (name.scrollWidth > name.clientWidth + 1) out.push(`card name "${name.textContent}" is wider than its card (${name.scrollWidth} > ${name.clientWidth} px, ${document.documentElement.lang})`);
  }
  return out;
}

/** Phone table: every card in play shows the first line of its power (or says a tap shows it). */
export function powerPreview() {
  const out = [];
  for (const card of document.querySelectorAll(".playarea .card")) {
    const power = card.querySelector(".power");
    const r = power?.getBoundingClientRect();
    if (!power || !r || r.height < 5 || !power.textContent.trim()) out.push(`phone: the card "${card.querySelector(".name")?.textContent}" shows no power text`);
  }
  return out;
}

/** Phone replay: the fixed controls take at most an eighth of the screen (the board is what one
 *  watches), and at the end of the page they cover nothing of the board or the log. */
export function replayControlsFit() {
  const nav = document.querySelector(".replay-controls");
  if (!nav || getComputedStyle(nav).position !== "fixed") return [];
  const out = [];
  const h = nav.getBoundingClientRect().height;
  if (h > innerHeight / 8) out.push(`replay: the controls are ${Math.round(h)} px tall, more than an eighth of the ${innerHeight} px screen`);
  const y0 = scrollY;
  try {
    scrollTo(0, document.documentElement.scrollHeight);
    const top = nav.getBoundingClientRect().top;
    for (const el of document.querySelectorAll(".replay-body .strip, .replay-body .playarea, .replay-log, .replay-files")) {
      if (el.getBoundingClientRect().bottom > top + 0.5) out.push(`replay: at the end of the page the controls cover ${el.className}`);
    }
  } finally {
    scrollTo(0, y0);
  }
  return out;
}

/** Desktop game over: the result, the rematch and the reveal (or the download) on the first screen. */
export function gameOverFits() {
  scrollTo(0, 0);
  const H = window.innerHeight;
  const out = [];
  const wanted = [
    ["the result", ".gameover .headline"],
    ["Rematch", ".gameover .over-rematch button, .gameover .over-rematch [role=status], .gameover .rematch-offer button"],
    ["Reveal", ".gameover .reveal-agree, .gameover .replay-panel a[download], .gameover .reveal-status"],
  ];
  for (const [what, sel] of wanted) {
    const el = document.querySelector(sel);
    if (!el) out.push(`game over: ${what} (${sel}) is missing`);
    else if (el.getBoundingClientRect().bottom > H + 0.5) out.push(`game over: ${what} is below the first screen (bottom ${Math.round(el.getBoundingClientRect().bottom)} > ${H})`);
  }
  return out;
}

/** Desktop card details: beside the card they are about, covering no other card. */
export function detailNearCard(cardSelector) {
  const aside = document.querySelector("aside.card-detail");
  const card = document.querySelector(cardSelector);
  if (!aside || !card) return [];
  const a = aside.getBoundingClientRect();
  const c = card.getBoundingClientRect();
  const out = [];
  const gapX = Math.max(0, a.left - c.right, c.left - a.right);
  const gapY = Math.max(0, a.top - c.bottom, c.top - a.bottom);
  if (gapX > 480 || gapY > 40) out.push(`card details open ${Math.round(gapX)} px beside and ${Math.round(gapY)} px above/below their card`);
  for (const other of document.querySelectorAll(".card")) {
    if (other === card || other.closest(".card-detail")) continue;
    const o = other.getBoundingClientRect();
    if (o.width === 0) continue;
    const overlap = Math.min(a.right, o.right) - Math.max(a.left, o.left) > 2 && Math.min(a.bottom, o.bottom) - Math.max(a.top, o.top) > 2;
    if (overlap) out.push(`card details cover the card "${other.querySelector(".name")?.textContent}"`);
  }
  return out;
}

/** A side's strip says "only you see this" once at most. */
export function repeatedSecretMarks() {
  return [...document.querySelectorAll(".strip")]
    .filter((s) => s.querySelectorAll(".secret-mark").length > 1)
    .map((s) => `"${s.querySelector(".secret-mark").textContent}" shown ${s.querySelectorAll(".secret-mark").length} times in ${s.getAttribute("aria-label")}'s strip`);
}
