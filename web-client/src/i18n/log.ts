// Plain sentences for log entries, localized from the structured entry (ACTIONS.md "Log entries") by
// each language pack's `log` (pack.ts), with the helpers they share.
import type { Card, EventCard, Faction, LogEntry, Modifier, Strategy } from "../net/protocol";
import type { Lang } from "./langs";
import { packOf } from "./packs";

export interface LogHelpers {
  side(f: Faction): string;
  /** `null`: a card this viewer may not know */
  card(c: Card | null): string;
  event(e: EventCard): string;
  strategy(s: Strategy | null): string;
  modifier(m: Modifier): string;
}

export type Fmt = (e: LogEntry, h: LogHelpers) => string;

type Revealed = Extract<LogEntry, { type: "strategies_revealed" }>;

/**
 * Each side's revealed strategy (`side` + `between` + strategy), marked with `over` when its total was
 * over the objective.
 */
export function revealedSides(e: Revealed, h: LogHelpers, between: string, over: string): string[] {
  return (["rebel", "imperial"] as const).map(
    (f, i) => `${h.side(f)}${between}${h.strategy(e.strategies[i])}${e.eligible[i] ? "" : over}`,
  );
}

/** when both players chose Deception, neither resolves. */
export function bothDeception(e: Revealed): boolean {
  return e.strategies[0] === "deception" && e.strategies[1] === "deception";
}

/** In 繁體中文 and 日本語 a name stands in 「」 brackets right against the text around it, as the
 *  rulebooks write it, instead of spaces that those languages do not use between words. */
function bracketed(h: LogHelpers): LogHelpers {
  const q = (s: string) => `「${s}」`;
  return {
    side: h.side,
    card: (c) => (c === null ? h.card(null) : q(h.card(c))),
    event: (e) => q(h.event(e)),
    strategy: (s) => (s === null ? h.strategy(null) : q(h.strategy(s))),
    modifier: (m) => q(h.modifier(m)),
  };
}

export function describeLog(lang: Lang, e: LogEntry, h: LogHelpers): string {
  const s = packOf(lang).log(e, lang === "en" ? h : bracketed(h));
  return s.charAt(0).toUpperCase() + s.slice(1);
}
