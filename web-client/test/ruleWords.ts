// The small words that carry a rule in a card or rules text without being glossary terms: whose cards
// ("either", "opposing"), how many ("up to", "any number", "both"), whether ("may", "not", "only"),
// where ("top", "bottom"), who ("winner", "loser", "owner"). A translation that drops one changes what
// the card does (Admiral Piett's "either discard pile" read as your own). translations.test.ts checks
// them in the texts that state rules: card powers, strategy and event effect texts, the pending
// choices' instructions (`step.*`) and the rules summary. Each lists the forms that say it in
// 繁體中文 and 日本語; an English word matches as glossary terms do (glossary.ts: word boundaries,
// any case, the usual endings).
export interface RuleWord {
  en: readonly string[];
  "zh-Hant": readonly string[];
  ja: readonly string[];
}

export const RULE_WORDS: readonly RuleWord[] = [
  { en: ["either"], "zh-Hant": ["任一", "雙方", "哪一方"], ja: ["どちらか", "どちらの", "いずれか", "双方"] },
  { en: ["neither"], "zh-Hant": ["都未", "都沒", "皆不", "都不"], ja: ["どちらも"] },
  { en: ["both"], "zh-Hant": ["兩者", "雙方", "各一", "兩張", "皆", "都"], ja: ["両方", "双方", "両者"] },
  { en: ["up to"], "zh-Hant": ["至多", "最多"], ja: ["まで"] },
  { en: ["any number"], "zh-Hant": ["任意"], ja: ["好きな", "任意"] },
  { en: ["may"], "zh-Hant": ["可"], ja: ["てもよい", "てよい", "でもよい", "できる", "できます"] },
  { en: ["only"], "zh-Hant": ["只", "僅"], ja: ["だけ", "のみ"] },
  { en: ["instead"], "zh-Hant": ["反而", "改", "取代"], ja: ["代わりに"] },
  { en: ["secretly"], "zh-Hant": ["秘密"], ja: ["秘密", "密かに", "分からないように", "知られないように"] },
  { en: ["random"], "zh-Hant": ["隨機"], ja: ["ランダム"] },
  { en: ["not"], "zh-Hant": ["不", "未", "無", "沒"], ja: ["ない", "ず", "ません"] },
  { en: ["opponent", "opposing"], "zh-Hant": ["對手"], ja: ["相手"] },
  { en: ["top"], "zh-Hant": ["頂", "最上"], ja: ["一番上", "上"] },
  { en: ["bottom"], "zh-Hant": ["底"], ja: ["一番下", "下"] },
  { en: ["discard"], "zh-Hant": ["棄"], ja: ["捨て"] },
  { en: ["shuffle"], "zh-Hant": ["洗"], ja: ["混ぜ", "シャッフル"] },
  { en: ["winner"], "zh-Hant": ["獲勝", "勝者", "贏"], ja: ["勝者"] },
  { en: ["loser"], "zh-Hant": ["落敗", "敗者", "輸"], ja: ["敗者"] },
  { en: ["owner"], "zh-Hant": ["擁有者", "各自"], ja: ["持ち主", "各自"] },
  { en: ["unused"], "zh-Hant": ["未使用"], ja: ["未使用"] },
  { en: ["lower", "less", "fewer"], "zh-Hant": ["低", "少"], ja: ["低", "少な"] },
];

/** The keys of the strings that state rules (translations.test.ts's keys). */
export function statesRules(key: string): boolean {
  return /^(?:power|strategy|effect|rules):/.test(key) || key.startsWith("msg:step.");
}

/** A rule word's name in failures: its first English form. */
export const ruleWordName = (w: RuleWord): string => w.en[0]!;
