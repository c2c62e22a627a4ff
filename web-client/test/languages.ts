// Vitest setup (vite.config.ts, vitest.*.config.ts): the tests render and translate in every language,
// so every language pack is loaded first, as the page loads its own before its first render, and so is
// every language's texts loaded on demand (i18n/onDemand.ts): the summary of the rules, which the page
// loads when its Rules drawer is first opened, the "Another device" panel's, the fair shuffles' drawer, the email reminders', the computer levels', accounts', friends' and ratings'.
import { LANGS } from "../src/i18n";
import { loadAccount } from "../src/i18n/account";
import { loadFairTech } from "../src/i18n/fairTech";
import { loadLevels } from "../src/i18n/levels";
import { loadPack } from "../src/i18n/packs";
import { loadReminders } from "../src/i18n/reminders";
import { loadRules } from "../src/i18n/rules";
import { loadSeatPanel } from "../src/i18n/seatPanel";
import { loadSocial } from "../src/i18n/social";

await Promise.all(
  LANGS.flatMap((l) => [
    loadPack(l.id),
    loadRules(l.id),
    loadSeatPanel(l.id),
    loadFairTech(l.id),
    loadReminders(l.id),
    loadLevels(l.id),
    loadAccount(l.id),
    loadSocial(l.id),
  ]),
);
