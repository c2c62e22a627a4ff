// A short summary of the rules for the reference panel, in the rulebooks' terms (glossary), in every
// pack (pack.ts). It follows docs/spec/rules.md (R-2 to R-5, R-7); the card texts are the packs' powers.
import type { Lang } from "./langs";
import type { RulesSection } from "./pack";
import { packOf } from "./packs";

export const rulesIn = (lang: Lang): readonly RulesSection[] => packOf(lang).rules;
