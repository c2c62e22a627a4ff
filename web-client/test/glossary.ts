// The rulebooks' terms, read from docs/spec/glossary.md when the tests run (Vite's `?raw` import), and
// the written-down rules by which translations.test.ts decides that an English string uses a term or a
// number and that a translation carries it. The rules live here so that the test reads as checks and
// the exceptions (translation-exceptions.ts) stay a short list of strings, not of matching quirks.
import glossaryMarkdown from "../../docs/spec/glossary.md?raw";

export type Local = "zh-Hant" | "ja";

/** One row of the glossary: every form of the term in each language. */
export interface Term {
  /** the English cell as written, which names the term in failures and exceptions */
  name: string;
  en: readonly string[];
  "zh-Hant": readonly string[];
  ja: readonly string[];
}

/**
 * The forms a cell lists. Alternatives are separated by " / " ("exhaust / exhausted", "橫置 / 已橫置");
 * a bracketed part is a fuller or shorter form of the same term ("影響力（影響力トークン）", "角色（角色
 * 資源牌）", "victory points (VP)"), so both the words outside and the words inside count; the "*"
 * marking names from the local Star Wars releases is not part of the name.
 */
export function cellForms(cell: string): string[] {
  const forms: string[] = [];
  for (const alt of cell.split(" / ")) {
    const plain = alt.replace(/\*$/, "").trim();
    const m = /^(.*?)\s*[（(]([^）)]+)[）)]\s*$/.exec(plain);
    if (m) forms.push(m[1]!.trim(), m[2]!.trim());
    else forms.push(plain);
  }
  return forms.filter((f) => f.length > 0);
}

/** The table's rows: the first table of the file whose header starts with "English". */
export function parseGlossary(markdown: string): Term[] {
  const terms: Term[] = [];
  let inTable = false;
  for (const line of markdown.split("\n")) {
    const trimmed = line.trim();
    if (!trimmed.startsWith("|")) {
      if (inTable) break;
      continue;
    }
    const cells = trimmed
      .slice(1, trimmed.endsWith("|") ? -1 : undefined)
      .split("|")
      .map((c) => c.trim());
    if (!inTable) {
      inTable = cells[0] === "English";
      continue;
    }
    if (cells.every((c) => /^:?-+:?$/.test(c))) continue; // the separator row
    const [en, zh, ja] = cells;
    if (!en || !zh || !ja) throw new Error(`glossary row with an empty cell: ${line}`);
    terms.push({ name: en, en: cellForms(en), "zh-Hant": cellForms(zh), ja: cellForms(ja) });
  }
  return terms;
}

export const GLOSSARY: readonly Term[] = parseGlossary(glossaryMarkdown);

/**
 * English uses the term in a sense that is not the game's. Each rule names the term's English form, the
 * words around it that show the ordinary sense, and why; the matched words are left out before the term
 * is looked for. Only terms that really occur in such words get a rule.
 */
const ORDINARY_SENSES: readonly { term: string; english: RegExp; why: string }[] = [
  {
    term: "character",
    english: /\b\d+ to \d+ characters\b/gi,
    why: "a length of text (a name, a chat message), not character cards",
  },
  {
    term: "power",
    english: /\b(?:Display of Power|Ultimate Power in the Universe)\b/g,
    why: "event names: the might of an army or the Death Star, not a card's power",
  },
];

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * An English form matches on word boundaries, whatever the case, with the usual endings on its last
 * word: "pass" also matches "passes", "passed", "passing"; "ready" also "readies", "readied";
 * "character" also "characters". Spaces inside a form match any run of spaces.
 */
function englishPattern(form: string): RegExp {
  const words = form.split(/\s+/).map(escapeRegExp);
  const last = words.pop()!;
  const ending = /y$/i.test(last) ? `(?:${last}|${last.slice(0, -1)}(?:ies|ied|ying))` : `${last}(?:s|es|d|ed|ing)?`;
  return new RegExp(`(?<![\\w-])${[...words, ending].join("\\s+")}(?![\\w-])`, "i");
}

/** A message's `{param}` placeholders are filled at run time, the same in every language: not text. */
function withoutParams(s: string): string {
  return s.replace(/\{\w+\}/g, " ");
}

/** The English text with the ordinary-sense words of `term` taken out (ORDINARY_SENSES). */
function gameSense(english: string, term: Term): string {
  let s = english;
  for (const o of ORDINARY_SENSES) if (term.en.includes(o.term)) s = s.replace(o.english, " ");
  return s;
}

/** Whether the English string says any of `forms` (englishPattern), placeholders aside. */
export function mentions(english: string, forms: readonly string[]): boolean {
  const s = withoutParams(english);
  return forms.some((f) => englishPattern(f).test(s));
}

/** Whether the English string uses `term` (any of its English forms) as the game's term. */
export function usesTerm(english: string, term: Term): boolean {
  return mentions(gameSense(withoutParams(english), term), term.en);
}

/**
 * The text a form is looked for by. A Japanese verb form matches whatever its ending, by its stem: the
 * glossary's 「カードをプレイする」 is found in 「カードをプレイしてください」, 「影響力を費やす」 in
 * 「影響力を費やし」 (a form ending in する loses it, another verb ending loses its last kana).
 */
function searchForm(form: string, lang: Local): string {
  if (lang !== "ja") return form;
  if (form.endsWith("する")) return form.slice(0, -2);
  return /[うくぐすつぬぶむる]$/.test(form) ? form.slice(0, -1) : form;
}

/** Whether a translation carries `term`: any of its listed forms occurs in it. */
export function carriesTerm(local: string, lang: Local, term: { readonly [L in Local]: readonly string[] }): boolean {
  return term[lang].some((f) => local.includes(searchForm(f, lang)));
}

// ---------------------------------------------------------------- numbers

/**
 * English number words, as digits. "one" counts only where it is a number: not as a pronoun after a
 * determiner ("a new one", "this one", "the one", "no one", "every one").
 */
const NUMBER_WORDS: Readonly<Record<string, number>> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
};
const PRONOUN_ONE = /\b(?:a|an|the|this|that|new|newer|other|no|every|each|which)\s+one\b/gi;

/** Each number the English text states: digits as written, number words as their digits (`word: true`). */
export function englishNumbers(english: string): { n: string; word: boolean }[] {
  const s = withoutParams(english).replace(PRONOUN_ONE, " ");
  const out: { n: string; word: boolean }[] = [];
  for (const m of s.matchAll(/\d+/g)) out.push({ n: m[0], word: false });
  for (const m of s.matchAll(/\b[a-z]+\b/gi)) {
    const v = NUMBER_WORDS[m[0].toLowerCase()];
    if (v !== undefined) out.push({ n: String(v), word: true });
  }
  return out;
}

/** The local numerals for 1 to 10: 繁體中文 also writes 兩 and 雙 for two ("兩張", "雙人"). */
const LOCAL_NUMERALS: Readonly<Record<Local, Readonly<Record<string, readonly string[]>>>> = {
  "zh-Hant": {
    1: ["一"],
    2: ["二", "兩", "雙"],
    3: ["三"],
    4: ["四"],
    5: ["五"],
    6: ["六"],
    7: ["七"],
    8: ["八"],
    9: ["九"],
    10: ["十"],
  },
  ja: {
    1: ["一"],
    2: ["二"],
    3: ["三"],
    4: ["四"],
    5: ["五"],
    6: ["六"],
    7: ["七"],
    8: ["八"],
    9: ["九"],
    10: ["十"],
  },
};

/**
 * Whether a translation states the number: a number the English writes in digits must be there in
 * digits (half- or full-width, not part of a longer number); a number the English writes as a word may
 * also be the local numeral ("one card" → 「一張卡牌」, 「1枚」).
 */
export function carriesNumber(local: string, lang: Local, num: { n: string; word: boolean }): boolean {
  const ascii = withoutParams(local).replace(/[０-９]/g, (d) => String.fromCharCode(d.charCodeAt(0) - 0xfee0));
  if (new RegExp(`(?<!\\d)${num.n}(?!\\d)`).test(ascii)) return true;
  return num.word && (LOCAL_NUMERALS[lang][num.n] ?? []).some((k) => ascii.includes(k));
}

// ---------------------------------------------------------------- punctuation

/** Full-width punctuation after which 繁體中文 and 日本語 put no half-width space. */
export const FULL_WIDTH_THEN_SPACE = /[。、，；：！？「」『』（）．・] /;
