// Translations that keep the rules: every string the client shows in English (interface messages, card
// powers, strategy and event effect texts, the rules summary, error texts, log sentences, names) is
// compared with its 繁體中文 and 日本語 versions:
// - each glossary term (docs/spec/glossary.md, read at test time) the English uses as the game's term
//   is there in that language's rulebook form;
// - in the texts that state rules (powers, effects, pending choices, the rules summary), each small word
//   that carries a rule ("either", "up to", "may", "not", …: ruleWords.ts) is there;
// - each number the English states is there (glossary.ts says how number words count);
// - no half-width space follows full-width punctuation (spacing.test.tsx looks at the screens too);
// - buttons are instructions: in 日本語 a verb, not the rulebook heading's noun;
// - the title is the rulebooks' 「帝國軍vs反抗軍」 / 「帝国軍 vs. 反乱軍」.
// A failure names the string's key, the language, the term or number and the text, so the fix is a
// translation. How terms and numbers are matched is in glossary.ts; the strings allowed to leave one out
// are in translation-exceptions.ts, each with its reason.
import { describe, expect, it } from "vitest";
import { ERROR_CODES } from "../../proto/ts/errorCodes";
import { CARDS, EVENTS, IMPERIAL_CHARACTERS, type PowerKey, REBEL_CHARACTERS, STRATEGIES } from "../src/data/cards";
import { LANGS, logLine, setLanguage } from "../src/i18n";
import { type AccountText, accountIn } from "../src/i18n/account";
import { en, type MessageKey } from "../src/i18n/en";
import { errorText } from "../src/i18n/errors";
import { fairTechIn } from "../src/i18n/fairTech";
import { type LevelsText, levelsIn } from "../src/i18n/levels";
import { cardIn, eventIn, strategyIn } from "../src/i18n/names";
import { packOf } from "../src/i18n/packs";
import { effectIn, powerIn, strategyTextIn } from "../src/i18n/powers";
import { type RemindersText, remindersIn } from "../src/i18n/reminders";
import { rulesIn } from "../src/i18n/rules";
import { type SeatPanelText, seatPanelIn } from "../src/i18n/seatPanel";
import { type SocialText, socialIn } from "../src/i18n/social";
import type { EventEffect, LogEntry } from "../src/net/protocol";
import {
  carriesNumber,
  carriesTerm,
  cellForms,
  englishNumbers,
  FULL_WIDTH_THEN_SPACE,
  GLOSSARY,
  type Local,
  mentions,
  parseGlossary,
  usesTerm,
} from "./glossary";
import { LOG_SAMPLES } from "./logSamples";
import { RULE_WORDS, ruleWordName, statesRules } from "./ruleWords";
import { EXCEPTIONS } from "./translation-exceptions";

const LOCALS: readonly Local[] = ["zh-Hant", "ja"];

/** One string in the three languages, under the key the exceptions use. */
interface Entry {
  key: string;
  en: string;
  "zh-Hant": string;
  ja: string;
}

/** Every event effect: a new one fails typecheck here until the test reads its text. */
const EFFECTS: { readonly [E in EventEffect]: true } = {
  none: true,
  ban_diplomacy: true,
  ban_recon: true,
  ban_military: true,
  ban_the_force: true,
  ban_characters_except_luke_and_vader: true,
  loser_loses_two_influence: true,
  winner_reorders_top_three_events: true,
  loser_strategy_random_next_round: true,
  winner_discards_loser_unused_strategy: true,
  loser_moves_character_to_reserve: true,
  winner_moves_character_to_reserve: true,
  loser_strategy_first_next_round: true,
  winner_may_add_reserve_character: true,
  winner_retrieves_all_strategies: true,
};

function entry(key: string, text: (l: "en" | Local) => string): Entry {
  return { key, en: text("en"), "zh-Hant": text("zh-Hant"), ja: text("ja") };
}

function logEntry(key: string, e: LogEntry): Entry {
  const line = (l: "en" | Local) => {
    setLanguage(l);
    return logLine(e);
  };
  const out = entry(key, line);
  setLanguage("en");
  return out;
}

/** Every string of the client, in the three languages. */
function allStrings(): Entry[] {
  const out: Entry[] = [];
  for (const k of Object.keys(en) as MessageKey[]) out.push(entry(`msg:${k}`, (l) => packOf(l).messages[k]));
  const powers: PowerKey[] = [
    ...REBEL_CHARACTERS,
    ...IMPERIAL_CHARACTERS,
    "military",
    "diplomacy",
    "recon",
    "the_force",
  ];
  for (const p of powers) out.push(entry(`power:${p}`, (l) => powerIn(l, p)));
  for (const s of STRATEGIES) out.push(entry(`strategy:${s}`, (l) => strategyTextIn(l, s)));
  for (const e of Object.keys(EFFECTS) as EventEffect[]) out.push(entry(`effect:${e}`, (l) => effectIn(l, e)));
  rulesIn("en")!.forEach((section, i) => {
    out.push(entry(`rules:${i + 1}.title`, (l) => rulesIn(l)![i]!.title));
    for (const j of section.points.keys()) {
      out.push(entry(`rules:${i + 1}.${j + 1}`, (l) => rulesIn(l)![i]!.points[j]!));
    }
  });
  // the texts loaded on demand: every string, and each function's text for sample values
  const seat = (l: "en" | Local) => seatPanelIn(l)!;
  for (const [k, v] of Object.entries(seat("en"))) {
    if (typeof v === "string") out.push(entry(`seatPanel:${k}`, (l) => seat(l)[k as keyof SeatPanelText] as string));
  }
  out.push(entry("seatPanel:expires", (l) => seat(l).expires(9, "05")));
  out.push(entry("seatPanel:signedOut", (l) => seat(l).signedOut(2)));
  for (const d of [
    { this_device: true, added_at: null, connected: true },
    { this_device: false, added_at: 1_795_600_700, connected: true },
  ]) {
    out.push(entry(`seatPanel:device:${d.this_device}`, (l) => seat(l).device(d)));
  }
  const remind = (l: "en" | Local) => remindersIn(l)!;
  for (const k of Object.keys(remind("en")) as (keyof RemindersText)[]) {
    out.push(
      entry(`reminders:${k}`, (l) => {
        const text = remind(l)[k];
        return typeof text === "function" ? text("a…@example.org") : text;
      }),
    );
  }
  const levels = (l: "en" | Local) => levelsIn(l)!;
  for (const k of ["easy", "normal", "hard"] as const satisfies readonly (keyof LevelsText)[]) {
    out.push(entry(`levels:${k}`, (l) => levels(l)[k]));
  }
  const fair = (l: "en" | Local) => fairTechIn(l)!;
  for (const k of ["during", "after", "commitment", "seed", "salt", "how"] as const) {
    out.push(entry(`fairTech:${k}`, (l) => fair(l)[k]));
  }
  for (const k of ["pending", "ok", "bad", "unavailable"] as const) {
    out.push(entry(`fairTech:check.${k}`, (l) => fair(l).check[k]));
  }
  const account = (l: "en" | Local) => accountIn(l)!;
  for (const [k, v] of Object.entries(account("en"))) {
    if (typeof v === "string") out.push(entry(`account:${k}`, (l) => account(l)[k as keyof AccountText] as string));
  }
  for (const n of [1, 3]) {
    out.push(entry(`account:kept:${n}`, (l) => account(l).kept(n)));
    out.push(entry(`account:signedOutOthers:${n}`, (l) => account(l).signedOutOthers(n)));
  }
  out.push(entry("account:signedInAs", (l) => account(l).signedInAs("Ana")));
  out.push(entry("account:otherHost", (l) => account(l).otherHost("evr.example")));
  out.push(entry("account:created", (l) => account(l).created(1_795_600_700_000)));
  const key = {
    id: "k",
    label: "Chrome on Linux",
    created_at_ms: 1_795_600_700_000,
    last_used_at_ms: 1_795_690_000_000,
  };
  out.push(entry("account:passkey", (l) => account(l).passkey(key)));
  for (const current of [true, false]) {
    const s = { id: "s", label: "Firefox on Windows", created_at_ms: 0, last_seen_at_ms: 1_795_600_700_000, current };
    out.push(entry(`account:device:${current}`, (l) => account(l).device(s)));
  }
  const social = (l: "en" | Local) => socialIn(l)!;
  for (const [k, v] of Object.entries(social("en"))) {
    if (typeof v === "string") out.push(entry(`social:${k}`, (l) => social(l)[k as keyof SocialText] as string));
  }
  // each function's text for sample values (the side names as the page gives them)
  const sideName = (l: "en" | Local) => (f: "rebel" | "imperial") => packOf(l).messages[`factionShort.${f}`];
  const samples: {
    readonly [K in keyof SocialText as SocialText[K] extends string ? never : K]: (
      t: SocialText,
      l: "en" | Local,
    ) => string;
  } = {
    requestSent: (t) => t.requestSent("Ben"),
    nowFriends: (t) => t.nowFriends("Ben"),
    removeConfirm: (t) => t.removeConfirm("Ben"),
    blockConfirm: (t) => t.blockConfirm("Ben"),
    unblockConfirm: (t) => t.unblockConfirm("Ben"),
    challengeTitle: (t) => t.challengeTitle("Ben"),
    incomingChallenge: (t) => t.incomingChallenge("Ben"),
    outgoingChallenge: (t) => t.outgoingChallenge("Ben"),
    challengeTerms: (t, l) =>
      t.challengeTerms({ side: sideName(l)("rebel"), clock: t.liveClock(5, 5), rated: true, spectators: "" }),
    yourSide: (t, l) => t.yourSide(sideName(l)("imperial")),
    newChallenges: (t) => t.newChallenges(3),
    acceptedBy: (t) => t.acceptedBy("Ben"),
    liveClock: (t) => t.liveClock(5, 5),
    overDays: (t) => t.overDays(3),
    recordLine: (t, l) => t.recordLine(sideName(l)("rebel"), { won: 3, lost: 2, drawn: 1, unfinished: 4 }),
    asSide: (t, l) => t.asSide(sideName(l)("imperial")),
    date: (t) => t.date(1_795_600_700_000),
    ratingTitle: (t) => t.ratingTitle("Ben"),
    ended: (t) => Object.values(t.ended).join(" / "),
    ratedGames: (t) => t.ratedGames(12),
    wld: (t) => t.wld(3, 2, 1),
    chartLabel: (t) => t.chartLabel(1500, 1623, 12),
    noLeaders: (t) => t.noLeaders(10),
    sideEdge: (t, l) =>
      t.sideEdge(
        { favoured: "rebel", points: 22, measured_score: 0.532, measured_games: 2500 } as Parameters<
          SocialText["sideEdge"]
        >[0],
        sideName(l),
      ),
  };
  for (const [k, f] of Object.entries(samples)) out.push(entry(`social:${k}`, (l) => f(social(l), l)));
  const accountCodes = Object.keys(account("en").errors);
  for (const code of [...Object.keys(ERROR_CODES), "network", "bad_response"]) {
    out.push(
      entry(`error:${code}`, (l) =>
        accountCodes.includes(code) ? account(l).errors[code as keyof AccountText["errors"]] : errorText(l, code, ""),
      ),
    );
  }
  for (const samples of Object.values(LOG_SAMPLES)) {
    for (const [i, e] of (samples as readonly LogEntry[]).entries()) out.push(logEntry(`log:${e.type}#${i}`, e));
  }
  for (const c of CARDS) out.push(entry(`name:${c.name}`, (l) => cardIn(l, c.name)));
  for (const e of EVENTS) out.push(entry(`name:${e}`, (l) => eventIn(l, e)));
  for (const s of STRATEGIES) out.push(entry(`name:${s}`, (l) => strategyIn(l, s)));
  return out;
}

const STRINGS = allStrings();

/** The messages that label a button or a link that does something (not the name of a panel it opens). */
const BUTTONS: readonly MessageKey[] = [
  "landing.createButton",
  "landing.enterButton",
  "landing.watchButton",
  "join.take",
  "common.back",
  "common.copy",
  "common.close",
  "common.confirm",
  "status.retry",
  "room.watchInstead",
  "seat.claimWin",
  "chars.confirm",
  "strategy.confirm",
  "card.select",
  "action.play_card",
  "action.use_power",
  "action.spend_influence",
  "action.pass",
  "pending.playYes",
  "pending.playNo",
  "over.rematch",
  "coach.fullGame",
  "detail.show",
  "reveal.agree",
  "reveal.download",
  "archive.download",
  "archive.watch",
  "archive.toRoom",
  "replay.watch",
  "replay.watchLive",
  "replay.first",
  "replay.back",
  "replay.forward",
  "replay.last",
  "chat.send",
  "name.save",
  "take.openSeat",
  "lobby.newInvite",
  "rooms.forget",
];
const used = new Set<(typeof EXCEPTIONS)[number]>();

function excused(key: string, lang: Local, what: { term?: string; number?: string }): boolean {
  const ex = EXCEPTIONS.find(
    (x) => x.key === key && x.lang === lang && x.term === what.term && x.number === what.number,
  );
  if (ex) used.add(ex);
  return ex !== undefined;
}

describe("the glossary as the test reads it", () => {
  it("parses the table with its alternatives", () => {
    expect(cellForms("影響力（影響力トークン）")).toEqual(["影響力", "影響力トークン"]);
    expect(cellForms("exhaust / exhausted")).toEqual(["exhaust", "exhausted"]);
    expect(cellForms("韓．索羅*")).toEqual(["韓．索羅"]);
    expect(parseGlossary("intro\n\n| English | 繁 | 日 |\n|---|---|---|\n| pass | 放棄行動 | パス |\n\nafter")).toEqual(
      [{ name: "pass", en: ["pass"], "zh-Hant": ["放棄行動"], ja: ["パス"] }],
    );
    expect(GLOSSARY.length).toBeGreaterThanOrEqual(44);
    const influence = GLOSSARY.find((t) => t.name === "influence")!;
    expect(influence.ja).toEqual(["影響力", "影響力トークン"]);
  });

  it("matches English terms as words, with their endings, in the game's sense only", () => {
    const term = (name: string) => GLOSSARY.find((t) => t.name === name)!;
    expect(usesTerm("The opponent passed.", term("pass"))).toBe(true);
    expect(usesTerm("A password", term("pass"))).toBe(false);
    expect(usesTerm("Pay 1 influence to ready it.", term("ready"))).toBe(true);
    expect(usesTerm("Already chosen.", term("ready"))).toBe(false);
    expect(usesTerm("Resource value {ready} when exhausted", term("ready"))).toBe(false);
    expect(usesTerm("Choose 4 characters", term("character"))).toBe(true);
    expect(usesTerm("A name is 1 to 24 characters on one line.", term("character"))).toBe(false);
  });

  it("reads numbers and number words", () => {
    expect(englishNumbers("Exhaust up to 2 ready cards")).toEqual([{ n: "2", word: false }]);
    expect(englishNumbers("Discard one of your cards; make a new one")).toEqual([{ n: "1", word: true }]);
    expect(carriesNumber("至多兩張", "zh-Hant", { n: "2", word: true })).toBe(true);
    expect(carriesNumber("至多兩張", "zh-Hant", { n: "2", word: false })).toBe(false);
    expect(carriesNumber("1枚", "ja", { n: "1", word: false })).toBe(true);
    expect(carriesNumber("17枚", "ja", { n: "7", word: false })).toBe(false);
  });
});

describe("translations keep the rules", () => {
  it("reads every string of the client", () => {
    expect(STRINGS.length).toBeGreaterThan(500);
    for (const s of STRINGS) for (const l of LOCALS) expect(s[l], `${l} ${s.key}`).not.toBe("");
  });

  it("every glossary term the English uses is there in the rulebook's form", () => {
    const missing: string[] = [];
    for (const s of STRINGS) {
      for (const term of GLOSSARY) {
        if (!usesTerm(s.en, term)) continue;
        for (const l of LOCALS) {
          if (carriesTerm(s[l], l, term) || excused(s.key, l, { term: term.name })) continue;
          missing.push(`${l} ${s.key}: "${term.name}" (${term[l].join(" / ")}) is not in 「${s[l]}」 (en: ${s.en})`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it("every word that carries a rule in a rules text is there", () => {
    const missing: string[] = [];
    for (const s of STRINGS.filter((x) => statesRules(x.key))) {
      for (const w of RULE_WORDS) {
        if (!mentions(s.en, w.en)) continue;
        for (const l of LOCALS) {
          if (carriesTerm(s[l], l, w) || excused(s.key, l, { term: ruleWordName(w) })) continue;
          missing.push(`${l} ${s.key}: "${ruleWordName(w)}" (${w[l].join(" / ")}) is not in 「${s[l]}」 (en: ${s.en})`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it("every number the English states is there", () => {
    const missing: string[] = [];
    for (const s of STRINGS) {
      for (const num of englishNumbers(s.en)) {
        for (const l of LOCALS) {
          if (carriesNumber(s[l], l, num) || excused(s.key, l, { number: num.n })) continue;
          missing.push(
            `${l} ${s.key}: ${num.word ? "the number word for " : ""}${num.n} is not in 「${s[l]}」 (en: ${s.en})`,
          );
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it("no half-width space after full-width punctuation", () => {
    const spaced = STRINGS.flatMap((s) =>
      LOCALS.filter((l) => FULL_WIDTH_THEN_SPACE.test(s[l])).map((l) => `${l} ${s.key}: 「${s[l]}」`),
    );
    expect(spaced).toEqual([]);
  });

  it("buttons say what to do: in 日本語 a verb, not a noun (「カードをプレイする」, not 「カードのプレイ」)", () => {
    // a verb's plain form, or its negative (「プレイしない」); a bracketed note after it aside
    const verb = /(?:[うくぐすつぬぶむる]|ない)$/;
    const nouns = BUTTONS.filter((k) => !verb.test(packOf("ja").messages[k].replace(/（[^）]*）$/, ""))).map(
      (k) => `${k}: 「${packOf("ja").messages[k]}」`,
    );
    expect(nouns).toEqual([]);
    // the "Another device" panel's buttons (its texts are loaded on demand)
    const panel = seatPanelIn("ja")!;
    const panelNouns = [panel.make, panel.again, panel.signOut, panel.signOutConfirm, panel.cancel].filter(
      (b) => !verb.test(b),
    );
    expect(panelNouns).toEqual([]);
  });

  it("names the game as the rulebooks do", () => {
    expect(packOf("zh-Hant").messages["app.gameName"]).toBe("帝國軍vs反抗軍");
    expect(packOf("ja").messages["app.gameName"]).toBe("帝国軍 vs. 反乱軍");
    expect(packOf("zh-Hant").messages["landing.intro1"]).toContain("《帝國軍vs反抗軍》");
    const versusTwice = STRINGS.filter((s) => s["zh-Hant"].includes("對vs")).map((s) => s.key);
    expect(versusTwice).toEqual([]);
    expect(GLOSSARY.find((t) => t.name === "Empire vs. Rebellion")?.["zh-Hant"]).toEqual(["帝國軍vs反抗軍"]);
  });

  it("every exception is still needed", () => {
    // runs last: the checks above record the exceptions they used
    const stale = EXCEPTIONS.filter((x) => !used.has(x)).map((x) => `${x.lang} ${x.key} ${x.term ?? x.number}`);
    expect(stale).toEqual([]);
    expect(LANGS.map((l) => l.id)).toEqual(["en", ...LOCALS]);
  });
});
