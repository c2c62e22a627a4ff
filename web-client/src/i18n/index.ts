// i18n: language signal (framework-free), message lookup with {params}, names, detection, persistence.
import { computed, signal } from "@preact/signals-core";
import type { KeyValueStorage } from "../net/env";
import type { LogEntry } from "../net/protocol";
import { en, type MessageKey, type Messages } from "./en";
import { errorText } from "./errors";
import { ja } from "./ja";
import { describeLog } from "./log";
import { type Lang, nameIn, strategyIn } from "./names";
import { EFFECT_TEXT, POWERS, STRATEGY_TEXT } from "./powers";
import { zhHant } from "./zhHant";

export type { Lang, MessageKey };

export const LANGS: { id: Lang; label: string }[] = [
  { id: "en", label: "English" },
  { id: "zh-Hant", label: "繁體中文" },
  { id: "ja", label: "日本語" },
];

export const MESSAGES: Record<Lang, Messages> = { en, "zh-Hant": zhHant, ja };

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

export function isLang(x: string | null): x is Lang {
  return x === "en" || x === "zh-Hant" || x === "ja";
}

export const lang = signal<Lang>("en");

let storage: KeyValueStorage | null = null;

/** Initial language: remembered choice, else the browser's. */
export function initLanguage(store: KeyValueStorage, prefs: readonly string[]): Lang {
  storage = store;
  const saved = store.getItem(STORAGE_KEY);
  lang.value = isLang(saved) ? saved : detectLanguage(prefs);
  return lang.value;
}

export function setLanguage(l: Lang): void {
  lang.value = l;
  storage?.setItem(STORAGE_KEY, l);
}

export function format(template: string, params?: Record<string, string | number>): string {
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (m, k: string) => (k in params ? String(params[k]) : m));
}

export function translate(l: Lang, key: MessageKey, params?: Record<string, string | number>): string {
  return format(MESSAGES[l][key] ?? en[key], params);
}

/** Translate in the current language (reads the signal, so components re-render on a switch). */
export function t(key: MessageKey, params?: Record<string, string | number>): string {
  return translate(lang.value, key, params);
}

export const cardName = (name: string | null): string => (name === null ? t("log.someone") : nameIn(lang.value, name));
export const eventName = (name: string): string => nameIn(lang.value, name);
export const strategyName = (s: string | null): string => (s === null ? "?" : strategyIn(lang.value, s));
export const sideName = (f: string): string => t(f === "rebel" ? "factionShort.rebel" : "factionShort.imperial");
export const powerText = (key: string): string => POWERS[key]?.[lang.value] ?? "";
export const strategyText = (s: string): string => STRATEGY_TEXT[s]?.[lang.value] ?? "";
export const effectText = (e: string): string => EFFECT_TEXT[e]?.[lang.value] ?? e;
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

/** Localized separators: ": " / "：", ", " / "、". */
export const colon = (): string => t("sep.colon");
export const listOf = (items: string[]): string => items.join(t("sep.list"));

/** A planning modifier by the card that sets it. */
export const modifierName = (m: string): string =>
  m === "infiltrated"
    ? strategyName("infiltration")
    : m === "diversion"
      ? eventName("Create a Diversion")
      : eventName("Locate the Rebel Base");

/** BCP 47 tag for <html lang>. */
export const htmlLang = computed(() => lang.value);
