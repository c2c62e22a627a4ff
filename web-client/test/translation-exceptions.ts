// Where a translation may legitimately leave out a glossary term or a number the English states
// (translations.test.ts). Each entry names the string (the test's key: "msg:<message key>",
// "power:<card or kind>", "strategy:<strategy>", "effect:<effect>", "rules:<section>.<point>",
// "error:<code>", "log:<entry type>#<sample>", "name:<name>"), the language, the term (the glossary's
// English cell) or the number, and why. Fix a translation rather than add an entry here; the test fails
// on an entry nothing needs any more.
import type { Local } from "./glossary";

export interface TranslationException {
  key: string;
  lang: Local;
  term?: string;
  number?: string;
  why: string;
}

export const EXCEPTIONS: readonly TranslationException[] = [];
