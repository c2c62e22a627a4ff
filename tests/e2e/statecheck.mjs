// In-page parts of the layout property test (layout-states.test.mjs). Plain browser JavaScript, no
// imports: each function is serialized into the page.
//
// - fakeSocket (an init script): the page's WebSocket is one the test drives. The real client
//   connects, says hello and gets what the server would send its viewer: a game's `welcome`, then
//   an `update` per action (a next game starts with a new welcome, as after a rematch).
// - checkGame (page.evaluate): plays one viewer's game into the page and, at the steps picked,
//   returns what is wrong with the page.

/** Init script: `window.WebSocket` becomes a socket whose server is `window.__states`. */
export function fakeSocket() {
  const S = (window.__states = { socket: null, hello: false });
  class TestSocket {
    static CONNECTING = 0;
    static OPEN = 1;
    static CLOSING = 2;
    static CLOSED = 3;
    constructor(url) {
      this.url = url;
      this.readyState = 0;
      this.onopen = this.onmessage = this.onclose = this.onerror = null;
      S.socket = this;
      setTimeout(() => {
        this.readyState = 1;
        this.onopen?.({});
      }, 0);
    }
    send(data) {
      const msg = JSON.parse(data);
      if (msg.type === "hello") {
        S.hello = true;
        S.version = msg.version;
      }
      if (msg.type === "ping") setTimeout(() => this.onmessage?.({ data: '{"type":"pong"}' }), 0);
    }
    close() {
      this.readyState = 3;
    }
  }
  window.WebSocket = TestSocket;
}

/**
 * In page: sends `messages` (a welcome, then the updates) and at each step of `check` (0: the welcome)
 * checks the page; `decision[i]`: the viewer has a decision at step `check[i]`. On a desktop
 * (`phone` false), with the page at its top: every control of the viewer's decision is on screen and
 * nothing covers it; no play area needs a second row or sideways scrolling; no card's name or power
 * is cut. On a phone: every control can be scrolled to where nothing covers it. Everywhere: the page
 * does not scroll sideways, and a decision has at least one control. Returns `[step, problem]` pairs.
 */
export async function checkGame({ messages, check, decision, phone }) {
  // the state rendered: Preact renders a task after the message at the latest, and the play areas'
  // fit is computed in the same render (web-client/src/ui/fitRow.ts, a layout effect); the checks
  // read the layout, which the browser then computes as it would for the next frame. (Waiting for
  // frames instead would take 16 ms a state and a paint each: minutes over every state.)
  // A phone also waits for the next frame: the fixed bar's height, which the page keeps clear when it
  // scrolls a control into view (scroll-padding), is measured by a resize observer.
  const settled = () => new Promise((ok) => (phone ? requestAnimationFrame(() => setTimeout(ok, 0)) : setTimeout(ok, 0)));
  const describe = (el) => {
    const cls = typeof el.className === "string" && el.className ? `.${el.className.trim().split(/\s+/).join(".")}` : "";
    const text = (el.textContent || el.getAttribute("aria-label") || "").trim().replace(/\s+/g, " ").slice(0, 30);
    return `${el.tagName.toLowerCase()}${cls}${text ? ` "${text}"` : ""}`;
  };
  const shown = (el) => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== "hidden";
  };
  // the controls of the viewer's decision: the table's buttons and options, the character picker's,
  // the planning's strategies (not a card's details, not a closed disclosure, not the chat)
  const CONTROLS = ".board button, .board input, .chars button, .chars input, .planning button, .strategy-block button";
  const controls = () =>
    [...document.querySelectorAll(CONTROLS)].filter((c) => {
      if (c.disabled || c.closest(".card-detail, details:not([open]), .chat, .replay-panel")) return false;
      return shown(c.matches('input[type="radio"], input[type="checkbox"]') ? (c.closest("label") ?? c) : c);
    });
  // a control in a list box that scrolls (a long list of options, IG-88's cards): the box is what
  // must be on screen, the control a scroll inside it
  const listBox = (c) => {
    const box = c.closest(".option-list, .pair-choice .cards-row");
    return box && box.scrollHeight > box.clientHeight + 1 ? box : null;
  };
  const targetOf = (c) => listBox(c) ?? (c.matches("input") ? (c.closest("label") ?? c) : c);
  // what is drawn over the middle of `target` (a list box: its middle may be any of its options)
  const covered = (target) => {
    if (target.matches(".option-list, .cards-row")) return null;
    const r = target.getBoundingClientRect();
    const W = document.documentElement.clientWidth;
    const hit = document.elementFromPoint(Math.min(Math.max(r.left + r.width / 2, 0), W - 1), Math.min(Math.max(r.top + r.height / 2, 0), innerHeight - 1));
    return hit && !target.contains(hit) && !hit.contains(target) ? hit : null;
  };

  const problems = [];
  let sent = 0;
  for (let i = 0; i < check.length; i++) {
    // the steps between two checks go in one go (the client renders once for them)
    while (sent <= check[i]) window.__states.socket.onmessage({ data: messages[sent++] });
    await settled();
    // the page at its top, the sides' panels too; the table's side column stays where the page put it
    // (a decision arriving there is scrolled into the column's view, under the event and the totals)
    scrollTo(0, 0);
    for (const el of document.querySelectorAll(".board-main > .strip")) el.scrollTop = 0;
    const add = (p) => problems.push([check[i], p]);
    const W = document.documentElement.clientWidth;
    const H = innerHeight;
    if (document.documentElement.scrollWidth > W + 1) add(`the page scrolls sideways (${document.documentElement.scrollWidth} > ${W} px)`);
    const mine = controls();
    if (decision[i] && mine.length === 0) add("a decision with no control on the page");
    for (const c of mine) {
      const target = targetOf(c);
      if (phone) {
        target.scrollIntoView({ block: "nearest" });
        const hit = covered(target);
        if (hit) add(`${describe(c)} is covered by ${describe(hit)} when scrolled to`);
        continue;
      }
      const r = target.getBoundingClientRect();
      const row = c.closest(".cards-row");
      if (r.top < -0.5 || r.bottom > H + 0.5 || r.left < -0.5 || r.right > W + 0.5) {
        add(`${describe(c)} is off screen (${Math.round(r.left)},${Math.round(r.top)}–${Math.round(r.right)},${Math.round(r.bottom)} in ${W}×${H})`);
        continue;
      }
      if (row && target !== row) {
        const rb = row.getBoundingClientRect();
        if (r.left < rb.left - 0.5 || r.right > rb.right + 0.5) add(`${describe(c)} is scrolled out of its row`);
      }
      const hit = covered(target);
      if (hit) add(`${describe(c)} is covered by ${describe(hit)}`);
    }
    if (!phone) {
      for (const row of document.querySelectorAll(".board .playarea .cards-row")) {
        if (row.scrollWidth > row.clientWidth + 1) add(`a play area scrolls sideways (${row.scrollWidth} > ${row.clientWidth} px)`);
        const tops = new Set([...row.children].filter(shown).map((c) => Math.round(c.getBoundingClientRect().top)));
        if (tops.size > 1) add(`a play area takes ${tops.size} rows`);
      }
      for (const el of document.querySelectorAll(".board .card .name, .board .card .power")) {
        if (!shown(el)) continue;
        if (el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1)
          add(`card text cut: "${el.textContent.trim().slice(0, 40)}" (${el.scrollWidth}×${el.scrollHeight} in ${el.clientWidth}×${el.clientHeight})`);
      }
    }
  }
  return problems;
}
