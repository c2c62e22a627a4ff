import { describe, expect, it } from "vitest";
import { ERROR_CODES } from "../../proto/ts/errorCodes";
import {
  CARDS,
  cardsIn,
  EVENT_INFO,
  EVENTS,
  eventsIn,
  IMPERIAL_CHARACTERS,
  type PowerKey,
  REBEL_CHARACTERS,
  STRATEGIES,
} from "../src/data/cards";
import {
  cardName,
  detectLanguage,
  effectText,
  eventName,
  initLanguage,
  LANGS,
  type Lang,
  lang,
  logLine,
  powerText,
  setLanguage,
  strategyName,
  strategyText,
  t,
} from "../src/i18n";
import { accountIn } from "../src/i18n/account";
import { en } from "../src/i18n/en";
import { errorText } from "../src/i18n/errors";
import { packOf } from "../src/i18n/packs";
import { rulesIn } from "../src/i18n/rules";
import { MemoryStorage } from "../src/net/env";
import type { LogEntry } from "../src/net/protocol";

describe("i18n", () => {
  it("every language has every key, non-empty, with the same {params}", () => {
    const params = (s: string) =>
      [...s.matchAll(/\{(\w+)\}/g)]
        .map((m) => m[1])
        .sort()
        .join(",");
    for (const { id } of LANGS) {
      const m = packOf(id).messages;
      expect(Object.keys(m).sort()).toEqual(Object.keys(en).sort());
      for (const [k, v] of Object.entries(m)) {
        expect(v.length, `${id} ${k}`).toBeGreaterThan(0);
        expect(params(v), `${id} ${k}`).toBe(params(en[k as keyof typeof en]));
      }
    }
  });

  it("detects the browser language", () => {
    expect(detectLanguage(["ja-JP", "en"])).toBe("ja");
    expect(detectLanguage(["zh-TW"])).toBe("zh-Hant");
    expect(detectLanguage(["zh-Hant-HK"])).toBe("zh-Hant");
    expect(detectLanguage(["fr", "en-GB"])).toBe("en");
    expect(detectLanguage(["de"])).toBe("en");
  });

  it("remembers the chosen language", async () => {
    const s = new MemoryStorage();
    expect(await initLanguage(s, ["ja"])).toBe("ja");
    await setLanguage("zh-Hant");
    expect(s.getItem("evr.lang")).toBe("zh-Hant");
    expect(await initLanguage(s, ["en"])).toBe("zh-Hant");
  });

  it("uses the glossary terms and names", () => {
    setLanguage("zh-Hant");
    expect(t("table.balance")).toBe("均勢標記");
    expect(t("action.pass")).toBe("放棄行動");
    expect(cardName("Han Solo")).toBe("韓．索羅");
    expect(cardName("Grand Moff Tarkin")).toBe("大星區長塔金");
    expect(cardName("Yoda")).toBe("尤達"); // the local Star Wars releases' name
    expect(cardName("Military 3")).toBe("軍事 3");
    expect(strategyName("bureaucracy")).toBe("官僚體制");
    expect(strategyName("deception")).toBe("謊言");
    expect(eventName("Escape From Tatooine")).toBe("逃離塔圖因");
    setLanguage("ja");
    expect(t("phase.struggle")).toBe("紛争フェーズ");
    expect(t("card.exhausted")).toBe("疲弊");
    expect(cardName("Admiral Piett")).toBe("ピエット提督");
    expect(strategyName("infiltration")).toBe("潜入");
    expect(t("app.gameName")).toBe("帝国軍 vs. 反乱軍");
    setLanguage("en");
    expect(lang.value).toBe("en");
  });

  it("names every card, event and strategy in each language", () => {
    const english = new Set([...CARDS.map((c) => c.name), ...EVENTS, "IG-88"]);
    for (const l of ["zh-Hant", "ja"] as const) {
      setLanguage(l);
      for (const c of CARDS) {
        const local = cardName(c.name);
        if (c.name !== "IG-88") expect(local, `${l} ${c.name}`).not.toBe(c.name);
        expect(english.has(local), `${l} ${c.name} -> ${local}`).toBe(c.name === "IG-88");
      }
      for (const e of EVENTS) expect(eventName(e), `${l} ${e}`).not.toBe(e);
      for (const st of STRATEGIES) expect(strategyName(st), `${l} ${st}`).toMatch(/^[^A-Za-z]+$/);
    }
    setLanguage("en");
    expect(cardName("Military 3")).toBe("Military 3");
    expect(strategyName("direct_assault")).toBe("Direct Assault");
  });

  it("has the same rules summary in every language", () => {
    const shape = (l: Lang) => rulesIn(l)!.map((sec) => sec.points.length);
    for (const l of ["zh-Hant", "ja"] as const) {
      expect(shape(l)).toEqual(shape("en"));
      for (const sec of rulesIn(l)!) for (const p of sec.points) expect(p, p).not.toMatch(/[A-Za-z]{3,}/);
    }
  });

  it("has a power text for every card kind and character, every strategy and effect", () => {
    for (const l of ["en", "zh-Hant", "ja"] as const) {
      setLanguage(l);
      const keys: PowerKey[] = [
        ...REBEL_CHARACTERS,
        ...IMPERIAL_CHARACTERS,
        "military",
        "diplomacy",
        "recon",
        "the_force",
      ];
      for (const k of keys) expect(powerText(k), k).not.toBe("");
      for (const c of CARDS) expect(powerText(c.power), c.name).not.toBe("");
      for (const s of STRATEGIES) expect(strategyText(s)).not.toBe("");
      expect(effectText("ban_recon")).not.toBe("ban_recon");
    }
    expect(CARDS.length).toBe(32);
    expect(EVENTS.length).toBe(24);
    setLanguage("en");
  });

  it("describes log entries in all languages", () => {
    const entries: LogEntry[] = [
      { type: "card_played", faction: "rebel", card: "Han Solo" },
      { type: "passed", faction: "imperial" },
      { type: "card_on_top", by: "imperial", deck: "rebel", card: null, from: "discard_pile" },
      { type: "balance_token", faction: "rebel", moved: true },
    ];
    setLanguage("en");
    expect(logLine(entries[0]!)).toBe("Rebel played Han Solo.");
    expect(logLine(entries[2]!)).toContain("a card");
    setLanguage("zh-Hant");
    expect(logLine(entries[0]!)).toBe("反抗軍打出「韓．索羅」。"); // a name in 「」, no stray spaces
    expect(logLine(entries[3]!)).toContain("均勢標記");
    setLanguage("ja");
    expect(logLine(entries[1]!)).toBe("帝国軍がパス。");
    expect(logLine(entries[0]!)).toBe("反乱軍が「ハン・ソロ」をプレイ。");
    // No space stands before or after a bracketed name.
    for (const l of ["zh-Hant", "ja"] as const) {
      setLanguage(l);
      for (const e of entries) expect(logLine(e)).not.toMatch(/ 「|」 /);
    }
    setLanguage("en");
  });

  it("says which revealed strategies do not resolve, and never that a used strategy resolves", () => {
    const bothDeception: LogEntry = {
      type: "strategies_revealed",
      strategies: ["deception", "deception"],
      totals: [9, 11],
      eligible: [true, true],
    };
    const oneOver: LogEntry = {
      type: "strategies_revealed",
      strategies: ["support", "deception"],
      totals: [14, 11],
      eligible: [false, true],
    };
    const used: LogEntry = { type: "strategy_used", faction: "rebel", strategy: "deception" };
    setLanguage("en");
    expect(logLine(bothDeception)).toContain("neither resolves");
    expect(logLine(oneOver)).toMatch(/Support \(over the objective: it does not resolve\), Imperial Deception\.$/);
    expect(logLine(oneOver)).not.toContain("neither");
    expect(logLine(used)).toBe("Rebel: Deception goes to the used strategies.");
    setLanguage("zh-Hant");
    expect(logLine(bothDeception)).toContain("皆不生效");
    expect(logLine(used)).not.toContain("生效");
    setLanguage("ja");
    expect(logLine(bothDeception)).toContain("どちらも解決しない");
    expect(logLine(used)).not.toContain("解決");
    setLanguage("en");
  });
});

describe("card data and names", () => {
  it("reads the engine's data: 24 events, VP add up to 42, every effect explained", () => {
    expect(EVENT_INFO.length).toBe(24);
    expect(EVENT_INFO.reduce((n, e) => n + e.vp, 0)).toBe(42);
    setLanguage("en");
    for (const e of EVENT_INFO) expect(effectText(e.effect), e.name).not.toBe(e.effect);
  });

  it("reads the wire's name lists (typed string[] by the generator) as cards and events", () => {
    expect(cardsIn(["Yoda", "Military 2", "Not a card"])).toEqual(["Yoda", "Military 2"]);
    expect(eventsIn(["Battle of Hoth", "Not an event"])).toEqual(["Battle of Hoth"]);
  });
});

describe("error texts", () => {
  it("every error code of the protocol has a text in every language", () => {
    const codes = Object.keys(ERROR_CODES);
    expect(codes.length).toBeGreaterThan(30);
    for (const code of [...codes, "network", "bad_response"]) {
      for (const { id } of LANGS) {
        // the account routes' codes: with the texts of accounts, loaded on demand (i18n/account.ts)
        const account: Record<string, string> = accountIn(id)!.errors;
        const text = Object.hasOwn(account, code) ? account[code]! : errorText(id, code, "");
        expect(text, `${id} ${code}`).not.toBe("");
        expect(text, `${id} ${code}`).not.toBe(code);
      }
    }
  });

  it("a code this build does not know shows the server's message, else the code", () => {
    expect(errorText("ja", "brand_new_code", "The server says no.")).toBe("The server says no.");
    expect(errorText("en", "brand_new_code", "")).toBe("brand_new_code");
    expect(errorText("zh-Hant", "bad_token", "The server says no.")).toBe("你的座位連結對此房間無效。");
  });
});
