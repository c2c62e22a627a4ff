// This browser's own settings, remembered in its storage: the name its person goes by (offered as
// their display name when they create or join a room, and written under as a spectator in the
// chat), which chat voices a player has muted for themselves, and how "your turn" is announced (a
// sound, a system notification), and the email address last left for reminders (offered, filled in,
// for the next room). Nothing here is sent to the server but the name and the address, when the
// person sends them.
import { signal } from "@preact/signals-core";
import type { KeyValueStorage } from "../net/env";

/** How the table moves: full, fast (every movement short), or off (as under the system's reduced
 *  motion, which turns them off whatever this says). */
export type Motion = "full" | "fast" | "off";
const MOTIONS: readonly Motion[] = ["full", "fast", "off"];

export interface Prefs {
  /** the name this device's person goes by: a seat's display name, a spectator's chat name
   *  (empty: not chosen yet) */
  name: string;
  /** a player hides the spectators' chat for themselves */
  muteSpectators: boolean;
  /** a player hides the opponent's typed messages (their quick phrases still show) */
  muteOpponentText: boolean;
  /** a short sound when it becomes your turn while the page is in the background */
  sound: boolean;
  /** a system notification then (asked of the browser when switched on) */
  notify: boolean;
  /** sounds at the table: the opponent's move, the reveal, your turn (tableSounds.ts); off until
   *  switched on */
  tableSounds: boolean;
  /** the table's movements (motion.ts applies it to the page) */
  motion: Motion;
  /** the address this device's person last left for a room's reminders (empty: none) */
  email: string;
}

const DEFAULTS: Prefs = {
  name: "",
  muteSpectators: false,
  muteOpponentText: false,
  sound: true,
  notify: false,
  tableSounds: false,
  motion: "full",
  email: "",
};
const KEY = "evr.prefs";

export const prefs = signal<Prefs>(DEFAULTS);
let storage: KeyValueStorage | null = null;

/** Reads the saved settings (unknown or damaged values fall back to the defaults). */
export function loadPrefs(store: KeyValueStorage): void {
  storage = store;
  let saved: Partial<Prefs> = {};
  try {
    const parsed: unknown = JSON.parse(store.getItem(KEY) ?? "{}");
    if (parsed && typeof parsed === "object") saved = parsed as Partial<Prefs>;
  } catch {
    saved = {};
  }
  const pick = <K extends keyof Prefs>(k: K): Prefs[K] =>
    typeof saved[k] === typeof DEFAULTS[k] ? (saved[k] as Prefs[K]) : DEFAULTS[k];
  // (saved as `chatName` before it was also the players' name)
  const legacyName = (saved as { chatName?: unknown }).chatName;
  if (typeof saved.name !== "string" && typeof legacyName === "string") saved.name = legacyName;
  prefs.value = {
    name: pick("name"),
    muteSpectators: pick("muteSpectators"),
    muteOpponentText: pick("muteOpponentText"),
    sound: pick("sound"),
    notify: pick("notify"),
    tableSounds: pick("tableSounds"),
    motion: MOTIONS.includes(saved.motion as Motion) ? (saved.motion as Motion) : DEFAULTS.motion,
    email: pick("email"),
  };
}

export function setPref<K extends keyof Prefs>(key: K, value: Prefs[K]): void {
  prefs.value = { ...prefs.value, [key]: value };
  storage?.setItem(KEY, JSON.stringify(prefs.value));
}
