// The client's languages. Adding one here makes `npm run typecheck` list every table that needs its
// texts (messages, names, powers, rules, log sentences, error texts); `detectLanguage` (index.ts)
// needs a rule to pick it from the browser's preferences.

/** The languages in the order of the language picker, with their own names. */
export const LANGS = [
  { id: "en", label: "English" },
  { id: "zh-Hant", label: "繁體中文" },
  { id: "ja", label: "日本語" },
] as const;

export type Lang = (typeof LANGS)[number]["id"];
