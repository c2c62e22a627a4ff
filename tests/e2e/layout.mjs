// Layout checks of the end-to-end test, beside the page auditor of e2e.test.mjs:
// - textAudit (an init script, run by the auditor after every render): text that is cut off by a
//   clipping box (other than a deliberate whole-line clamp with an ellipsis), a list's numbers
//   wider than the room its clipping box leaves them, and text of two elements drawn over each
//   other;
// - foldCheck (run by the test before each decision of the desktop player): every control of the
//   decision is on screen with the page scrolled to the top, and nothing (the action bar, another
//   panel) is drawn over it.
// Both record their findings in the auditor's problem list (kinds "clipped", "overlap", "fold").

/** Init script: registers the text checks with the page auditor (`window.__audit`). */
export function textAudit() {
  const install = () => {
    const st = window.__audit;
    if (!st) return;
    const CLIPS = new Set(["hidden", "clip", "auto", "scroll"]);
    // text in these is not laid out for reading: screen-reader-only text, overlays over the page
    const SKIP = ".sr-only, .sr-visible, aside.card-detail, .toast, option, select, script, style, noscript";

    /** Text hidden for the eyes and kept for screen readers (the `.sr-only` pattern, which a phone's
     *  layout applies to some of the header's words): an absolutely placed box clipped to nothing. */
    const visuallyHidden = (el) => {
      for (let p = el; p && p !== document.body; p = p.parentElement) {
        const cs = getComputedStyle(p);
        if (cs.position === "absolute" && /^rect\(0(px)?,? 0(px)?,? 0(px)?,? 0(px)?\)$/.test(cs.clip)) return true;
      }
      return false;
    };
    /** The elements that draw text themselves (a non-blank text node as a direct child). */
    const textElements = () => {
      const out = [];
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      const seen = new Set();
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const el = n.parentElement;
        if (!el || seen.has(el) || !n.data.trim()) continue;
        seen.add(el);
        if (el.closest(SKIP) || el.closest("details:not([open]) > :not(summary)")) continue;
        if (!st.shown(el) || visuallyHidden(el)) continue;
        out.push(el);
      }
      return out;
    };
    /** The clipping boxes between an element and the page, innermost first. */
    const clippers = (el) => {
      const out = [];
      for (let p = el; p && p !== document.body && p !== document.documentElement; p = p.parentElement) {
        const cs = getComputedStyle(p);
        if (CLIPS.has(cs.overflowX) || CLIPS.has(cs.overflowY)) out.push({ el: p, cs, scrolls: /auto|scroll/.test(cs.overflowX + cs.overflowY) });
        if (cs.position === "fixed") break;
      }
      return out;
    };
    /** The layer an element is drawn in: fixed and sticky boxes float over the page's content. */
    const layer = (el) => {
      for (let p = el; p && p !== document.body; p = p.parentElement) {
        const pos = getComputedStyle(p).position;
        if (pos === "fixed" || pos === "sticky") return p;
      }
      return null;
    };
    const lineRects = (el) => {
      const rects = [];
      for (const n of el.childNodes) {
        if (n.nodeType !== Node.TEXT_NODE || !n.data.trim()) continue;
        const r = document.createRange();
        r.selectNodeContents(n);
        for (const b of r.getClientRects()) if (b.width > 0.5 && b.height > 0.5) rects.push(b);
      }
      return rects;
    };
    const intersect = (a, b) => ({ left: Math.max(a.left, b.left), top: Math.max(a.top, b.top), right: Math.min(a.right, b.right), bottom: Math.min(a.bottom, b.bottom) });
    const text = (el) => el.textContent.replace(/\s+/g, " ").trim().slice(0, 40);
    const measure = document.createElement("canvas").getContext("2d");

    let deferred = false;
    const check = () => {
      // mid-transition boxes are between two layouts: check once the movements have ended (an ending
      // movement changes nothing in the DOM, so no render would bring the check back)
      const running = document.getAnimations().filter((a) => a.playState === "running");
      if (running.length) {
        if (!deferred) {
          deferred = true;
          Promise.allSettled(running.map((a) => a.finished)).then(() => {
            deferred = false;
            check();
          });
        }
        return;
      }
      const boxes = [];
      for (const el of textElements()) {
        const clips = clippers(el);
        let rects = lineRects(el);
        // clipped text: a line outside a clipping (not scrolling) box, unless that box clamps whole
        // lines with an ellipsis — then it must end on a line boundary
        for (const c of clips) {
          if (c.scrolls) continue;
          const box = c.el.getBoundingClientRect();
          const clamp = c.cs.webkitLineClamp && c.cs.webkitLineClamp !== "none";
          const ellipsis = c.cs.textOverflow === "ellipsis";
          if (clamp) {
            const lh = Number.parseFloat(c.cs.lineHeight);
            const inner = c.el.clientHeight - Number.parseFloat(c.cs.paddingTop) - Number.parseFloat(c.cs.paddingBottom);
            const lines = inner / lh;
            if (lh > 0 && c.el.scrollHeight > c.el.clientHeight + 1 && Math.abs(lines - Math.round(lines)) > 0.15)
              st.add("clipped", "clamp|" + st.describe(c.el), `text clamped mid-line (${lines.toFixed(2)} lines of ${lh.toFixed(1)} px) in ${st.describe(c.el)}`);
            continue;
          }
          const cut = rects.find((r) => r.left < box.left - 1 || r.right > box.right + 1 || r.top < box.top - 1 || r.bottom > box.bottom + 1);
          if (cut && !ellipsis)
            st.add("clipped", "cut|" + st.describe(el), `text cut off by ${st.describe(c.el)}: "${text(el)}" (line ${Math.round(cut.left)}–${Math.round(cut.right)} × ${Math.round(cut.top)}–${Math.round(cut.bottom)}, box ${Math.round(box.left)}–${Math.round(box.right)} × ${Math.round(box.top)}–${Math.round(box.bottom)})`);
        }
        // what is visible of each line, for the overlap check
        for (const c of clips) {
          const box = c.el.getBoundingClientRect();
          rects = rects.map((r) => intersect(r, box)).filter((r) => r.right - r.left > 1 && r.bottom - r.top > 1);
        }
        if (rects.length) boxes.push({ el, rects, layer: layer(el) });
      }
      // list numbers: an outside marker is drawn in the list's left padding; in a list that clips
      // (a scrolling log) a number wider than that padding is cut ("237." drawn as "37.")
      for (const ol of document.querySelectorAll("ol")) {
        if (ol.closest(SKIP) || ol.closest("details:not([open]) > :not(summary)") || !st.shown(ol)) continue;
        const cs = getComputedStyle(ol);
        if (!CLIPS.has(cs.overflowX) || cs.listStylePosition !== "outside" || !/decimal/.test(cs.listStyleType)) continue;
        const items = [...ol.children].filter((li) => li.tagName === "LI");
        if (!items.length) continue;
        const widest = ol.start + items.length - 1;
        measure.font = getComputedStyle(items[items.length - 1]).font;
        const need = measure.measureText(`${widest}. `).width;
        const room = Number.parseFloat(cs.paddingLeft);
        if (need > room + 0.5)
          st.add("clipped", "marker|" + st.describe(ol), `list number "${widest}." (${need.toFixed(1)} px) wider than the left padding (${room.toFixed(1)} px) of ${st.describe(ol)}`);
      }
      boxes.sort((a, b) => a.rects[0].top - b.rects[0].top);
      for (let i = 0; i < boxes.length; i++) {
        const a = boxes[i];
        for (let j = i + 1; j < boxes.length; j++) {
          const b = boxes[j];
          if (a.layer !== b.layer || a.el.contains(b.el) || b.el.contains(a.el)) continue;
          // what lies inert behind an overlay (the final table under the game over's result) is not
          // read while it is covered
          if (a.el.closest("[inert]") || b.el.closest("[inert]")) continue;
          for (const ra of a.rects)
            for (const rb of b.rects) {
              const w = Math.min(ra.right, rb.right) - Math.max(ra.left, rb.left);
              const h = Math.min(ra.bottom, rb.bottom) - Math.max(ra.top, rb.top);
              // line boxes of neighbouring lines touch; glyphs drawn over each other overlap by more
              if (w > 2 && h > Math.min(ra.bottom - ra.top, rb.bottom - rb.top) * 0.3)
                st.add("overlap", "overlap|" + st.describe(a.el) + "|" + st.describe(b.el), `text drawn over text: "${text(a.el)}" (${st.describe(a.el)}) and "${text(b.el)}" (${st.describe(b.el)}) overlap by ${Math.round(w)} × ${Math.round(h)} px`);
            }
        }
      }
    };
    st.extraChecks.push(check);
  };
  if (window.__audit) install();
  else document.addEventListener("DOMContentLoaded", install);
}

/** In page: the controls of the current decision that are off screen with the page scrolled to the
 *  top, or covered by another element. The page's scroll position is restored afterwards. (The table's
 *  side column stays where the page put it: a decision arriving there is scrolled into the column's
 *  view, under the event and the totals.) */
export function foldProblems() {
  const describe = window.__audit?.describe ?? ((el) => el.tagName);
  const scrollers = [document.scrollingElement].filter(Boolean).map((el) => [el, el.scrollTop, el.scrollLeft]);
  for (const [el] of scrollers) el.scrollTop = 0;
  const problems = [];
  try {
    const H = window.innerHeight;
    const W = document.documentElement.clientWidth;
    const controls = [...document.querySelectorAll(".board button, .board input, .chars button, .chars input")].filter((c) => {
      // a card's "Select" on the table is a shortcut to an option the dialog lists: the dialog's own
      // option is the control that must be on screen
      if (c.disabled || c.closest(".card-detail, details") || c.matches(".target-btn")) return false;
      const r = (c.matches('input[type="radio"]') ? c.closest("label") ?? c : c).getBoundingClientRect();
      return r.width > 0 && r.height > 0;
    });
    for (const c of controls) {
      // an option of a long list (or one of IG-88's cards) that scrolls in its own list box: the box
      // must be on screen, whole; the option need only be inside it
      const box = c.closest(".option-list, .pair-choice .cards-row");
      const listBox = box && box.scrollHeight > box.clientHeight + 1 ? box : null;
      const target = listBox ?? (c.matches('input[type="radio"]') ? c.closest("label") ?? c : c);
      const r = target.getBoundingClientRect();
      // a card's buttons in a sideways-scrolling row count when their row starts on screen
      if (r.top < -0.5 || r.bottom > H + 0.5 || (r.left >= W && !c.closest(".cards-row"))) {
        problems.push(`${describe(c)} is off screen at the top of the page (top ${Math.round(r.top)}, bottom ${Math.round(r.bottom)}, viewport ${W}×${H})`);
        continue;
      }
      if (r.left >= W || r.right <= 0) continue;
      // a card's button scrolled out of its row's box (the row scrolls sideways) is a scroll away
      const row = c.closest(".cards-row");
      if (row) {
        const rb = row.getBoundingClientRect();
        const cx = r.left + r.width / 2;
        if (cx < rb.left || cx > rb.right) continue;
      }
      const x = Math.min(Math.max(r.left + r.width / 2, 0), W - 1);
      const y = r.top + r.height / 2;
      const hit = document.elementFromPoint(x, y);
      if (listBox) continue;
      if (hit && !target.contains(hit) && !hit.contains(target)) problems.push(`${describe(c)} is covered by ${describe(hit)}`);
    }
  } finally {
    for (const [el, top, left] of scrollers) {
      el.scrollTop = top;
      el.scrollLeft = left;
    }
  }
  return problems;
}
