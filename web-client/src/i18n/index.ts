// i18n: language signal (framework-free), message lookup with {params}, names, detection, persistence.
import { computed, signal } from "@preact/signals-core";
import type { PowerKey } from "../data/cards";
import type { KeyValueStorage } from "../net/env";
import type { Card, EventCard, EventEffect, Faction, LogEntry, Modifier, Strategy } from "../net/protocol";
import type { MessageKey } from "./en";
import { errorText } from "./errors";
import { LANGS, type Lang } from "./langs";
import { describeLog } from "./log";
import { cardIn, eventIn, strategyIn } from "./names";
import { isLoaded, loadPack, packOf } from "./packs";
import { effectIn, powerIn, strategyTextIn } from "./powers";

export type { Lang, MessageKey };
export { LANGS };

const STORAGE_KEY = "evr.lang";

/** Pick a language from the browser's preferences: zh-TW/zh-HK/zh-Hant → zh-Hant, ja → ja, else en. */
export function detectLanguage(prefs: readonly string[]): Lang {
  for (const raw of prefs) {
    const p = raw.toLowerCase();
    if (p.startsWith("ja")) return "ja";
    if (p === "zh-tw" || p === "zh-hk" || p === "zh-mo" || p.startsWith("zh-hant")) return "zh-Hant";
    if (p.startsWith("en")) return "en";
  }
  return "en";
}

function isLang(x: string | null): x is Lang {
  return LANGS.some((l) => l.id === x);
}

/** The language the page shows; only ever one whose pack is loaded (packs.ts). */
export const lang = signal<Lang>("en");

let storage: KeyValueStorage | null = null;

/** Initial language: remembered choice, else the browser's; its pack loaded (English when that
 *  language's file cannot be fetched). Resolves before the first render (main.tsx). */
export async function initLanguage(store: KeyValueStorage, prefs: readonly string[]): Promise<Lang> {
  storage = store;
  const saved = store.getItem(STORAGE_KEY);
  const wanted = isLang(saved) ? saved : detectLanguage(prefs);
  const l = await loadPack(wanted).then(
    () => wanted,
    () => loadPack("en").then(() => "en" as const),
  );
  lang.value = l;
  return l;
}

/** Shows `l` (at once when its pack is loaded, else once it is) and remembers the choice. When its
 *  file cannot be fetched (offline) the page stays in its language. */
export function setLanguage(l: Lang): Promise<void> {
  const show = () => {
    lang.value = l;
    storage?.setItem(STORAGE_KEY, l);
  };
  if (isLoaded(l)) {
    show();
    return Promise.resolve();
  }
  return loadPack(l).then(show, () => undefined);
}

function format(template: string, params?: Record<string, string | number>): string {
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (m, k: string) => (k in params ? String(params[k]) : m));
}

export function translate(l: Lang, key: MessageKey, params?: Record<string, string | number>): string {
  return format(packOf(l).messages[key], params);
}

/** Translate in the current language (reads the signal, so components re-render on a switch). */
export function t(key: MessageKey, params?: Record<string, string | number>): string {
  return translate(lang.value, key, params);
}

/** A card's name; `null`: a card the viewer may not know ("a card"). */
export const cardName = (name: Card | null): string => (name === null ? t("log.someone") : cardIn(lang.value, name));
export const eventName = (name: EventCard): string => eventIn(lang.value, name);
export const strategyName = (s: Strategy | null): string => (s === null ? "?" : strategyIn(lang.value, s));
export const sideName = (f: Faction): string => t(f === "rebel" ? "factionShort.rebel" : "factionShort.imperial");
/** The players' display names, `[rebel, imperial]` (`null`: none given). */
export type Names = readonly [string | null, string | null];
/** A person's own words inside a sentence, isolated (U+2068 … U+2069): a right-to-left name cannot
 * move the words, brackets and digits around it ("Ana (Rebel)", "Ana 3 – 7 Ben"). */
export const isolated = (text: string): string => `\u2068${text}\u2069`;
/** A player as named at the table: their display name (isolated), else their side. Always text. */
export const playerName = (f: Faction, names: Names | null | undefined): string => {
  const name = names?.[f === "rebel" ? 0 : 1];
  return name ? isolated(name) : sideName(f);
};
/** A player with their side, "Ana (Rebel)"; without a name just the side. */
export const playerLabel = (f: Faction, names: Names | null | undefined): string => {
  const name = names?.[f === "rebel" ? 0 : 1];
  return name ? t("player.named", { name: isolated(name), side: sideName(f) }) : sideName(f);
};
export const powerText = (key: PowerKey | null): string => powerIn(lang.value, key);
export const strategyText = (s: Strategy): string => strategyTextIn(lang.value, s);
export const effectText = (e: EventEffect): string => effectIn(lang.value, e);
/** An error code's text; a code this build does not know shows `fallback` (the server's message). */
export const errorMessage = (code: string, fallback = ""): string => errorText(lang.value, code, fallback);

export function logLine(e: LogEntry): string {
  return describeLog(lang.value, e, {
    side: sideName,
    card: cardName,
    event: eventName,
    strategy: strategyName,
    modifier: modifierName,
  });
}

/** Localized separator: ": " / "：". */
export const colon = (): string => t("sep.colon");

/** Sentences side by side: a space after an English sentence, none after 。！？ and the other full-width
 *  punctuation 繁體中文 and 日本語 end a sentence with (it holds its own space). */
export const sentences = (...parts: string[]): string =>
  parts.reduce((text, part) => (text === "" || /[。！？」）：]$/.test(text) ? text + part : `${text} ${part}`), "");

/** A planning modifier by the card that sets it. */
function modifierName(m: Modifier): string {
  switch (m) {
    case "infiltrated":
      return strategyName("infiltration");
    case "diversion":
      return eventName("Create a Diversion");
    case "located":
      return eventName("Locate the Rebel Base");
  }
}

/** BCP 47 tag for <html lang>. */
export const htmlLang = computed(() => lang.value);
