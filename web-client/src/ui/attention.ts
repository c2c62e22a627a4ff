// "Your turn" while the page is in the background: when this player has something to decide (their
// struggle turn, a pending choice, or a simultaneous choice they have not made yet — the server then
// lists legal actions for them) and the tab is hidden or the window is elsewhere, the tab's title and
// icon say so; when the decision arrives while away, a short sound (Web Audio, no asset) and, if this
// browser allowed it, a system notification. Coming back or deciding clears the marks.
import { signal } from "@preact/signals-core";
import { useEffect } from "preact/hooks";
import { t } from "../i18n";
import { prefs } from "../state/prefs";
import type { GameStore } from "../state/store";

/** What an alert does outside the page's own DOM (replaced in tests). */
export interface AlertEffects {
  beep(): void;
  notify(title: string, body: string): void;
}

/** The alert state machine: `marked` (title and icon) while a decision waits and the page is away;
 *  a beep and a notification once per decision that arrives while away. */
export class TurnAlerts {
  readonly marked = signal(false);
  private needed = false;

  constructor(private effects: AlertEffects) {}

  update(needs: boolean, away: boolean, sound: boolean, notify: boolean): void {
    if (needs && !this.needed && away) {
      if (sound) this.effects.beep();
      if (notify) this.effects.notify(t("alert.title"), t("alert.body"));
    }
    this.needed = needs;
    this.marked.value = needs && away;
  }
}

/** A short two-note chime made with Web Audio (nothing to download). */
function beep(): void {
  const Ctx = globalThis.AudioContext;
  if (!Ctx) return;
  try {
    const ctx = new Ctx();
    const now = ctx.currentTime;
    for (const [i, freq] of [660, 880].entries()) {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, now + i * 0.12);
      gain.gain.exponentialRampToValueAtTime(0.15, now + i * 0.12 + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + i * 0.12 + 0.11);
      osc.connect(gain).connect(ctx.destination);
      osc.start(now + i * 0.12);
      osc.stop(now + i * 0.12 + 0.12);
    }
    setTimeout(() => void ctx.close().catch(() => {}), 600);
  } catch {
    // a browser that refuses audio without a gesture: the title and icon still say it
  }
}

function notify(title: string, body: string): void {
  const N = globalThis.Notification;
  if (!N) return;
  if (N.permission !== "granted") return;
  try {
    new N(title, { body, tag: "evr-your-turn" });
  } catch {
    // some mobile browsers only notify from a service worker: the title and icon still say it
  }
}

const browserEffects: AlertEffects = { beep, notify };

/** The tab icon with a bright dot: it is your turn. */
const ALERT_ICON =
  "data:image/svg+xml," +
  encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><circle cx="16" cy="16" r="15" fill="#1b1f2a"/>' +
      '<circle cx="16" cy="16" r="9" fill="#f5c542"/></svg>',
  );

/** Follows `store` and the page's visibility and focus; puts the marks on the title (`title` is the
 *  page's own) and the icon while needed. */
export function useTurnAlerts(store: GameStore, title: string): void {
  const needs = !!store.me.value && !store.forfeited.value && (store.view.value?.legal_actions.length ?? 0) > 0;
  const p = prefs.value;
  const alerts = useAlerts();
  useEffect(() => {
    const check = () =>
      alerts.update(needs, document.visibilityState === "hidden" || !document.hasFocus(), p.sound, p.notify);
    check();
    document.addEventListener("visibilitychange", check);
    addEventListener("focus", check);
    addEventListener("blur", check);
    return () => {
      document.removeEventListener("visibilitychange", check);
      removeEventListener("focus", check);
      removeEventListener("blur", check);
    };
  }, [needs, p.sound, p.notify, alerts]);
  const marked = alerts.marked.value;
  useEffect(() => {
    document.title = marked ? `${t("alert.titleMark")} ${title}` : title;
    const icon = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
    if (icon) {
      icon.dataset.normal ??= icon.href;
      icon.href = marked ? ALERT_ICON : icon.dataset.normal;
    }
  }, [marked, title]);
}

let shared: TurnAlerts | null = null;
function useAlerts(): TurnAlerts {
  shared ??= new TurnAlerts(browserEffects);
  return shared;
}
