// Vitest setup (vite.config.ts, vitest.*.config.ts): the tests render and translate in every language,
// so every language pack is loaded first, as the page loads its own before its first render.
import { LANGS } from "../src/i18n";
import { loadPack } from "../src/i18n/packs";

await Promise.all(LANGS.map((l) => loadPack(l.id)));
