// Vitest setup (vite.config.ts, vitest.*.config.ts): the tests render and translate in every language,
// so every language pack is loaded first, as the page loads its own before its first render, and so is
// every language's summary of the rules, which the page loads when its Rules drawer is first opened.
import { LANGS } from "../src/i18n";
import { loadPack } from "../src/i18n/packs";
import { loadRules } from "../src/i18n/rules";

await Promise.all(LANGS.flatMap((l) => [loadPack(l.id), loadRules(l.id)]));
