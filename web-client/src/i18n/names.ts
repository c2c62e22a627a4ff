// Card, event and strategy names. Only names the glossary (shared/spec/glossary.md) translates are
// translated; every other name keeps its English form in all languages (see README).
export type Lang = "en" | "zh-Hant" | "ja";

type NameTable = Record<string, { "zh-Hant": string; ja: string }>;

export const NAMES: NameTable = {
  "Han Solo": { "zh-Hant": "韓．索羅", ja: "ハン・ソロ" },
  Chewbacca: { "zh-Hant": "丘巴卡", ja: "チューバッカ" },
  "Leia Organa": { "zh-Hant": "莉亞公主", ja: "レイア・オーガナ" },
  "R2-D2 and C-3PO": { "zh-Hant": "R2-D2和C-3PO", ja: "R2-D2とC-3PO" },
  "General Veers": { "zh-Hant": "維爾斯將軍", ja: "ヴィアーズ将軍" },
  "Admiral Piett": { "zh-Hant": "皮耶特將軍", ja: "ピエット提督" },
  "Grand Moff Tarkin": { "zh-Hant": "大星區長塔金", ja: "ターキン総督" },
  "Emperor Palpatine": { "zh-Hant": "帕爾帕庭", ja: "パルパティン皇帝" },
  "Escape From Tatooine": { "zh-Hant": "逃離塔圖因", ja: "タトゥーインから脱出" },
};

export const STRATEGY_NAMES: Record<string, Record<Lang, string>> = {
  deception: { en: "Deception", "zh-Hant": "謊言", ja: "欺瞞" },
  direct_assault: { en: "Direct Assault", "zh-Hant": "Direct Assault", ja: "Direct Assault" },
  infiltration: { en: "Infiltration", "zh-Hant": "滲透", ja: "潜入" },
  bureaucracy: { en: "Bureaucracy", "zh-Hant": "Bureaucracy", ja: "Bureaucracy" },
  support: { en: "Support", "zh-Hant": "Support", ja: "Support" },
};

/** A card or event name in `lang` (English when the glossary has no translation). */
export function nameIn(lang: Lang, name: string): string {
  if (lang === "en") return name;
  return NAMES[name]?.[lang] ?? name;
}

export function strategyIn(lang: Lang, s: string): string {
  return STRATEGY_NAMES[s]?.[lang] ?? s;
}
