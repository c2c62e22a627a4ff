// Pure helpers over a View: what the UI needs to show the next move. No framework imports.

import { cardsIn, catalogIndex } from "../data/cards";
import type {
  Action,
  Card,
  CardRef,
  Choice,
  Faction,
  PendingView,
  PlayerView,
  Role,
  RoundResult,
  View,
} from "../net/protocol";

export function myFaction(role: Role | null): Faction | null {
  return role && role.role === "seat" ? role.faction : null;
}

/** The player shown at the bottom: my seat, or the Rebels for spectators. */
export function bottomFaction(role: Role | null): Faction {
  return myFaction(role) ?? "rebel";
}

export function playerOf(view: View, f: Faction): PlayerView {
  return f === "rebel" ? view.rebel : view.imperial;
}

export function isMyTurn(view: View, role: Role | null): boolean {
  const me = myFaction(role);
  return me !== null && view.phase === "struggle" && view.turn === me;
}

/** Whose move the game waits for: the pending choice's owner first, then the turn. */
export function waitingFor(view: View): Faction | null {
  if (view.pending) return view.pending.owner;
  if (view.phase === "struggle") return view.turn;
  return null;
}

export interface TotalStatus {
  total: number;
  objective: number;
  /** objective − total; negative when bust */
  margin: number;
  bust: boolean;
}

export function totalStatus(view: View, f: Faction): TotalStatus | null {
  if (!view.event) return null;
  const total = playerOf(view, f).total;
  const objective = view.event.objective;
  return { total, objective, margin: objective - total, bust: total > objective };
}

/** A side's total as the table's meter shows it: the play area's total, and once the engine has
 *  decided the current round, the total that decided it (a Direct Assault's +2 included) and its
 *  bust; a meter reading "8 / 8" beside a round result "8 +2 Direct Assault = 10 BUST" said two
 *  things at once. */
export function meterTotal(view: View, f: Faction): (TotalStatus & { directAssault: boolean }) | null {
  const live = totalStatus(view, f);
  if (!live) return null;
  const o = roundOutcome(view, view.round);
  if (o?.state !== "decided" || o.event !== view.event?.event) return { ...live, directAssault: false };
  const i = f === "rebel" ? 0 : 1;
  const total = o.totals[i];
  return {
    total,
    objective: o.objective,
    margin: o.objective - total,
    bust: o.bust[i],
    directAssault: o.direct_assault[i],
  };
}

export function capacityLeft(view: View, f: Faction): number {
  return playerOf(view, f).capacity_left;
}

export type ActionKind = Action["type"];

export function legalByKind(view: View): Partial<Record<ActionKind, Action[]>> {
  const out: Partial<Record<ActionKind, Action[]>> = {};
  for (const a of view.legal_actions) {
    const same = out[a.type] ?? [];
    same.push(a);
    out[a.type] = same;
  }
  return out;
}

export interface CardActions {
  use_power?: Action;
  spend_influence?: Action;
}

/** `use_power` / `spend_influence` actions by the card they name. */
export function legalByCard(view: View): Map<Card, CardActions> {
  const out = new Map<Card, CardActions>();
  for (const a of view.legal_actions) {
    if (a.type === "use_power" || a.type === "spend_influence") {
      const entry = out.get(a.card) ?? {};
      entry[a.type] = a;
      out.set(a.card, entry);
    }
  }
  return out;
}

/** The answers I may give to the pending choice (empty unless it is mine). */
export function myAnswers(view: View, role: Role | null): Choice[] {
  const me = myFaction(role);
  if (!view.pending || me === null || view.pending.owner !== me) return [];
  return view.pending.options ?? [];
}

export function refKey(r: CardRef): string {
  return `${r.owner}:${r.card}`;
}

/** Every card named by some option of the pending choice: the cards that glow as valid targets. */
export function pendingTargets(view: View, role: Role | null): Set<string> {
  const out = new Set<string>();
  for (const c of myAnswers(view, role)) {
    switch (c.kind) {
      case "cards":
        for (const r of c.cards) out.add(refKey(r));
        break;
      case "discard_and_top":
        out.add(refKey(c.discard));
        out.add(refKey(c.top));
        break;
      case "character":
        if (view.pending) out.add(refKey({ owner: view.pending.owner, card: c.card }));
        break;
      default:
        break;
    }
  }
  return out;
}

/** A stable key for a choice, so the UI can tell options apart and match a selection to one. */
export function choiceKey(c: Choice): string {
  switch (c.kind) {
    case "cards":
      return `cards:${c.cards.map(refKey).sort().join(",")}`;
    case "deck":
      return `deck:${c.owner}`;
    case "discard_and_top":
      return `dt:${refKey(c.discard)}>${refKey(c.top)}`;
    case "character":
      return `char:${c.card}>${c.to}`;
    case "strategy":
      return `strategy:${c.strategy}`;
    case "event_order":
      return `order:${c.events.join("|")}`;
    case "play":
      return `play:${c.play}`;
  }
}

/** Find the `cards` option whose set equals `selected` (by refKey), if the server offers it. */
export function matchCardsOption(options: Choice[], selected: Iterable<string>): Choice | null {
  const want = [...selected].sort().join(",");
  return options.find((c) => c.kind === "cards" && c.cards.map(refKey).sort().join(",") === want) ?? null;
}

/** The legal `choose_characters` action naming exactly `chosen`, if any. */
export function matchCharacterChoice(view: View, chosen: Iterable<Card>): Action | null {
  const want = [...chosen].sort().join("|");
  return (
    view.legal_actions.find((a) => a.type === "choose_characters" && [...a.characters].sort().join("|") === want) ??
    null
  );
}

/** The characters offered in the character choice (the union of the legal choices). */
export function characterPool(view: View): Card[] {
  const seen: Card[] = [];
  for (const a of view.legal_actions) {
    if (a.type === "choose_characters") for (const c of cardsIn(a.characters)) if (!seen.includes(c)) seen.push(c);
  }
  return seen.sort((a, b) => catalogIndex(a) - catalogIndex(b));
}

/** Legal `choose_strategy` actions by target faction. */
export function strategyChoices(view: View): { rebel: Action[]; imperial: Action[] } {
  const out = { rebel: [] as Action[], imperial: [] as Action[] };
  for (const a of view.legal_actions) if (a.type === "choose_strategy") out[a.target].push(a);
  return out;
}

/** What the reveal settled: it stands whatever happens next. Arrays are [rebel, imperial]. */
interface RoundReveal {
  round: number;
  event: RoundResult["event"];
  objective: number;
  strategies: RoundResult["strategies"];
  totals_at_reveal: [number, number];
  /** total not above the objective at the reveal (else bust: the strategy does not resolve) */
  eligible: [boolean, boolean];
}

/** A round's result as far as the engine has decided it. */
export type RoundOutcome =
  | (RoundReveal & {
      state: "undetermined";
      /** the choice the decision waits for (R-5.2: a Support), while the round is being played */
      waiting: { owner: Faction; source: PendingView["source"] } | null;
    })
  | (RoundReveal & {
      state: "decided";
      direct_assault: [boolean, boolean];
      /** after Direct Assault */
      totals: [number, number];
      bust: [boolean, boolean];
      would_be_winner: Faction | null;
      deception: boolean;
      /** null: nobody wins, the event goes under the deck */
      winner: Faction | null;
      reason: NonNullable<RoundResult["reason"]>;
      /** VP at the end of the round; null until the engine has written them (the round's cleanup,
       *  or the end of the game): an event effect's choice may come first */
      vp_after: [number, number] | null;
    });

/** The one place the client reads a round's result: whether the engine has decided it, and what
 *  it decided. The engine puts the round in `rounds` at the reveal with placeholders for what is
 *  not known yet (no Direct Assault, nobody bust, no winner, 0 VP) and fills them in when it
 *  determines victory, which is when `reason` becomes non-null; reading the
 *  placeholders as a result would announce "nobody wins" while a Support is still being chosen. */
export function roundOutcome(view: View, round: number): RoundOutcome | null {
  const r = view.rounds.find((x) => x.round === round);
  if (!r) return null;
  const reveal: RoundReveal = {
    round: r.round,
    event: r.event,
    objective: r.objective,
    strategies: r.strategies,
    totals_at_reveal: r.totals_at_reveal,
    eligible: r.eligible,
  };
  if (r.reason === null) {
    const live = r.round === view.round && view.phase === "dominance" && view.pending !== null;
    return {
      ...reveal,
      state: "undetermined",
      waiting: live && view.pending ? { owner: view.pending.owner, source: view.pending.source } : null,
    };
  }
  // The cleanup moves on to the next round (or ends the game), so a round before the current one,
  // or any round of a finished game, has its final VP.
  const vpFinal = r.round < view.round || view.outcome !== null;
  return {
    ...reveal,
    state: "decided",
    direct_assault: r.direct_assault,
    totals: r.totals,
    bust: r.bust,
    would_be_winner: r.would_be_winner,
    deception: r.deception,
    winner: r.winner,
    reason: r.reason,
    vp_after: vpFinal ? r.vp_after : null,
  };
}

/** VP after each round for the small chart: the rounds whose VP the engine has settled. */
export function vpByRound(view: View): { round: number; vp: [number, number] }[] {
  return view.rounds.flatMap((r) => {
    const o = roundOutcome(view, r.round);
    return o?.state === "decided" && o.vp_after ? [{ round: o.round, vp: o.vp_after }] : [];
  });
}

/** The option a click on a glowing card picks: the one naming only that card, else the first naming it. */
export function optionForCard(options: Choice[], key: string): Choice | null {
  const names = (c: Choice): string[] =>
    c.kind === "cards" ? c.cards.map(refKey) : c.kind === "discard_and_top" ? [refKey(c.discard), refKey(c.top)] : [];
  return (
    options.find((o) => names(o).length === 1 && names(o)[0] === key) ??
    options.find((o) => names(o).includes(key)) ??
    null
  );
}
