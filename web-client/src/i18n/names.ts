// Card, event and strategy names in the three languages. Where the rulebooks name something, the
// glossary (docs/spec/glossary.md) gives that name and we use it exactly; character names the
// rulebooks do not print follow the local Star Wars releases (glossary: "use the names the local Star
// Wars releases use"); the remaining game terms (basic card kinds, three strategies, most events) are
// our translations, marked `ours` below. The README lists the sources.
//
// The tables are keyed by the generated unions (`Card`, `EventCard`, `Strategy`, proto/ts) and need
// every language: a new character, event, strategy or language fails `npm run typecheck` here.
import { type BasicKind, type Character, cardInfo } from "../data/cards";
import type { Card, EventCard, Strategy } from "../net/protocol";
import type { Lang } from "./langs";

/** A name in every language but English: the English name is the one on the wire. */
type Translated = { readonly [L in Exclude<Lang, "en">]: string };

/** Characters, keyed by their English name. */
const CHARACTER_NAMES: { readonly [C in Character]: Translated } = {
  // Rebel characters
  "Han Solo": { "zh-Hant": "韓．索羅", ja: "ハン・ソロ" },
  Chewbacca: { "zh-Hant": "丘巴卡", ja: "チューバッカ" },
  "Leia Organa": { "zh-Hant": "莉亞公主", ja: "レイア・オーガナ" },
  "R2-D2 and C-3PO": { "zh-Hant": "R2-D2和C-3PO", ja: "R2-D2とC-3PO" },
  "Luke Skywalker": { "zh-Hant": "路克．天行者", ja: "ルーク・スカイウォーカー" },
  "Lando Calrissian": { "zh-Hant": "藍道．卡瑞森", ja: "ランド・カルリジアン" },
  "Obi-Wan Kenobi": { "zh-Hant": "歐比王．肯諾比", ja: "オビ＝ワン・ケノービ" },
  Yoda: { "zh-Hant": "尤達", ja: "ヨーダ" },
  // Imperial characters
  "General Veers": { "zh-Hant": "維爾斯將軍", ja: "ヴィアーズ将軍" },
  "Admiral Piett": { "zh-Hant": "皮耶特將軍", ja: "ピエット提督" },
  "Grand Moff Tarkin": { "zh-Hant": "大星區長塔金", ja: "ターキン総督" },
  "Emperor Palpatine": { "zh-Hant": "帕爾帕庭", ja: "パルパティン皇帝" },
  "Darth Vader": { "zh-Hant": "達斯．維達", ja: "ダース・ベイダー" },
  "Boba Fett": { "zh-Hant": "波巴．費特", ja: "ボバ・フェット" },
  "IG-88": { "zh-Hant": "IG-88", ja: "IG-88" },
  "Jabba the Hutt": { "zh-Hant": "赫特人賈霸", ja: "ジャバ・ザ・ハット" },
};

/** Events, keyed by their English name. */
const EVENT_NAMES: { readonly [E in EventCard]: Translated } = {
  // Events: Escape From Tatooine is the rulebooks'; the others are ours
  "Escape From Tatooine": { "zh-Hant": "逃離塔圖因", ja: "タトゥーインから脱出" },
  "Acquire the Death Star Plans": { "zh-Hant": "奪取死星設計圖", ja: "デス・スターの設計図入手" },
  "Attack on Echo Base": { "zh-Hant": "進攻回聲基地", ja: "エコー基地攻撃" },
  "Balance of the Force": { "zh-Hant": "原力平衡", ja: "フォースのバランス" },
  "Battle of Endor": { "zh-Hant": "恩多之戰", ja: "エンドアの戦い" },
  "Battle of Hoth": { "zh-Hant": "霍斯之戰", ja: "ホスの戦い" },
  "Battle of Yavin": { "zh-Hant": "雅汶之戰", ja: "ヤヴィンの戦い" },
  "Control of Endor": { "zh-Hant": "控制恩多", ja: "エンドアの支配" },
  "Create a Diversion": { "zh-Hant": "聲東擊西", ja: "陽動作戦" },
  "Destroy the Shield Generator": { "zh-Hant": "摧毀護盾產生器", ja: "シールド発生装置の破壊" },
  "Diplomatic Freedom": { "zh-Hant": "外交自由", ja: "外交の自由" },
  "Display of Power": { "zh-Hant": "展示武力", ja: "力の誇示" },
  "Duel on Cloud City": { "zh-Hant": "雲城決鬥", ja: "クラウド・シティの決闘" },
  "Evacuation of Echo Base": { "zh-Hant": "撤離回聲基地", ja: "エコー基地からの撤退" },
  "Fall of a Hero": { "zh-Hant": "英雄殞落", ja: "英雄の失墜" },
  "Heart of the Empire": { "zh-Hant": "帝國心臟", ja: "帝国の中枢" },
  "Locate the Rebel Base": { "zh-Hant": "找出反抗軍基地", ja: "反乱軍基地の発見" },
  "Most Desperate Hour": { "zh-Hant": "最危急的時刻", ja: "最大の危機" },
  "Negotiate with the Hutts": { "zh-Hant": "與赫特人談判", ja: "ハットとの交渉" },
  "Occupation of Cloud City": { "zh-Hant": "佔領雲城", ja: "クラウド・シティ占領" },
  "Rebel Uprising": { "zh-Hant": "反抗軍起義", ja: "反乱軍の蜂起" },
  "Rescue Mission to Cloud City": { "zh-Hant": "雲城救援任務", ja: "クラウド・シティ救出作戦" },
  "Securing the Rebel Base on Yavin 4": { "zh-Hant": "鞏固雅汶4號反抗軍基地", ja: "ヤヴィン4の反乱軍基地確保" },
  "Ultimate Power in the Universe": { "zh-Hant": "宇宙終極力量", ja: "宇宙最強の力" },
};

/** The four basic card kinds; a basic card's name is "<Kind> <value>" (ours). */
const BASIC_KINDS: { readonly [K in BasicKind]: Translated } = {
  military: { "zh-Hant": "軍事", ja: "軍事" },
  diplomacy: { "zh-Hant": "外交", ja: "外交" },
  recon: { "zh-Hant": "偵察", ja: "偵察" },
  the_force: { "zh-Hant": "原力", ja: "フォース" },
};

/** Deception and Infiltration are the rulebooks'; the other three are ours. */
const STRATEGY_NAMES: { readonly [S in Strategy]: { readonly [L in Lang]: string } } = {
  deception: { en: "Deception", "zh-Hant": "謊言", ja: "欺瞞" },
  direct_assault: { en: "Direct Assault", "zh-Hant": "正面強攻", ja: "直接攻撃" },
  infiltration: { en: "Infiltration", "zh-Hant": "滲透", ja: "潜入" },
  bureaucracy: { en: "Bureaucracy", "zh-Hant": "官僚體制", ja: "官僚主義" },
  support: { en: "Support", "zh-Hant": "支援", ja: "支援" },
};

function isCharacter(card: Card): card is Character {
  return Object.hasOwn(CHARACTER_NAMES, card);
}

/** A card's name in `lang` (the English name when this build does not know the card). */
export function cardIn(lang: Lang, card: Card): string {
  if (lang === "en") return card;
  if (isCharacter(card)) return CHARACTER_NAMES[card][lang];
  // a basic card: its kind and its value ("Military 3" → "軍事 3")
  const info = cardInfo(card);
  if (info.kind === "character") return card;
  return `${BASIC_KINDS[info.kind][lang]} ${card.slice(card.lastIndexOf(" ") + 1)}`;
}

/** An event's name in `lang` (the English name for an event a newer server knows and this build does not). */
export function eventIn(lang: Lang, event: EventCard): string {
  return lang === "en" ? event : (EVENT_NAMES[event]?.[lang] ?? event);
}

export function strategyIn(lang: Lang, s: Strategy): string {
  return STRATEGY_NAMES[s]?.[lang] ?? s;
}
