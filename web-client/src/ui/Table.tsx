import { useEffect, useRef } from "preact/hooks";
import { cardsIn } from "../data/cards";
import { cardName, colon, playerLabel, playerName, sideName, strategyName, t } from "../i18n";
import { type Faction, otherFaction, type PlayerView, type View } from "../net/protocol";
import { choiceKey, meterTotal, myAnswers, optionForCard, playerOf, refKey, roundOutcome } from "../state/derived";
import type { GameStore } from "../state/store";
import { CardFace } from "./Card";
import { Coach } from "./Coach";
import { Counts } from "./Counts";
import { EventCard, RoundSummary } from "./Event";
import { useRowFit } from "./fitRow";
import { useCountTo } from "./motion";
import { PendingPanel } from "./PendingPanel";
import { slotText } from "./Planning";
import { useRowPlaces } from "./rowPlaces";
import { pendingSelection } from "./selection";
import { useCardTravel } from "./travel";
import { PlayerName, useBottomBarRoom } from "./widgets";

/** The table: on a desktop, the players' areas in the main column (opponent above, you below, the
 *  action bar under your cards) and the event, totals, pending choice and round result in a side
 *  column as wide as a choice needs (so that one opening moves nothing), so a whole turn fits one
 *  screen (1280×800, 1366×768). On a phone the two columns dissolve
 *  into one (CSS `display: contents` + `order`): opponent, event, totals, you, with a fixed action bar. */
export function Table({ store, ended }: { store: GameStore; ended?: boolean }) {
  const view = store.view.value!;
  const bottom = store.bottom.value;
  const top = otherFaction(bottom);
  const current = roundOutcome(view, view.round);
  const choosing = !ended && myAnswers(view, store.role.value).length > 0;
  const flipped = useRef(0);
  return (
    <div class="board table">
      <div class="board-main">
        <PlayerStrip view={view} f={top} store={store} />
        <PlayArea view={view} f={top} store={store} ended={ended} />
        <PlayArea view={view} f={bottom} store={store} ended={ended} />
        <PlayerStrip view={view} f={bottom} store={store} />
        <ActionBar store={store} ended={ended} />
      </div>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region with nothing focusable in it must take the keyboard's focus to scroll (axe: scrollable-region-focusable) */}
      <aside class="board-side" aria-label={t("event.title")} tabIndex={0}>
        {/* the event and the totals first, the round's result, then a choice: a choice opening
            and closing below them moves none of them (layout shift), nor does its notice going;
            PendingPanel brings its dialog into the column's view. While the viewer's choice is
            open the result is brief (a new element: nothing in it moves), so that the choice fits
            one laptop screen under it and the player sees the reveal beside what it gave them. */}
        <EventCard view={view} />
        <Totals view={view} />
        {!ended && <Coach view={view} store={store} />}
        {current && (
          <RoundSummary
            key={choosing ? "brief" : "full"}
            outcome={current}
            tutorial={view.mode === "tutorial"}
            ended={ended}
            brief={choosing}
            flipped={flipped}
          />
        )}
        {!ended && <PendingPanel store={store} />}
      </aside>
    </div>
  );
}

function Totals({ view }: { view: View }) {
  if (!view.event) return null;
  const obj = view.event.objective;
  const scale = Math.max(obj + 6, view.rebel.total, view.imperial.total);
  return (
    <section class="totals" aria-label={t("table.total")}>
      {(["imperial", "rebel"] as const).map((f) => (
        <Meter key={f} f={f} s={meterTotal(view, f)!} objective={obj} scale={scale} />
      ))}
    </section>
  );
}

/** A side's total against the objective; the number counts to a new total (useCountTo), the bar
 *  slides there (moments.css), a bust is marked at once. */
function Meter(props: { f: Faction; s: NonNullable<ReturnType<typeof meterTotal>>; objective: number; scale: number }) {
  const { f, s, objective, scale } = props;
  const total = useCountTo(s.total);
  return (
    <div class={`meter ${f}${s.bust ? " bust" : ""}`}>
      <span class="who">{sideName(f)}</span>
      <span class="bar" aria-hidden="true">
        <span class="fill" style={{ width: `${(Math.min(s.total, scale) / scale) * 100}%` }} />
        <span class="goal" style={{ left: `${(objective / scale) * 100}%` }} />
      </span>
      <span class="num">{t("table.totalOf", { total, objective })}</span>
      {/* over the bar's end, not beside the number: the bar and the number keep their places
          when the reveal adds a Direct Assault or a bust (it moved both: layout shift) */}
      {(s.directAssault || s.bust) && (
        <span class="note">
          {s.directAssault && t("dominance.directAssault")}
          {s.bust && <strong class="bust"> {t("table.bust")}</strong>}
        </span>
      )}
    </div>
  );
}

function PlayerStrip({ view, f, store }: { view: View; f: Faction; store: GameStore }) {
  const p: PlayerView = playerOf(view, f);
  const mine = store.me.value === f;
  // a rated room's rating beside the name, "1500?" while provisional as state/rating.ts writes it
  // (not imported: the page's script would export it to ui/social/, a few bytes it has not)
  const rating = store.room.value?.ratings?.[+(f !== "rebel")];
  const shuffles = store.log.value.filter((e) => e.type === "deck_shuffled" && e.faction === f).length;
  const acting = view.phase === "struggle" && view.turn === f;
  // a pass is the last action and the other side is to act; it is shown until someone acts.
  const passed = view.phase === "struggle" && view.last_action_was_pass && view.turn === otherFaction(f);
  // What only this player sees is marked once, on the first such line: the chosen strategy before
  // the reveal, the top of the deck, the characters (a badge on each line read as noise)
  // The strategy's line is marked (dashed) while its choice is secret, but the badge is never its own:
  // at the reveal the badge went to the next line, and both moved (layout shift).
  const secretStrategy = mine && p.strategy.state === "known" && !view.rounds.some((r) => r.round === view.round);
  const firstSecret = !mine ? null : p.deck_top ? "deck" : p.characters ? "chars" : null;
  const onlyYou = (line: string) =>
    firstSecret === line && (
      <>
        <span class="badge secret-mark">{t("common.onlyYou")}</span>{" "}
      </>
    );
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: on a desktop a side's panel is at most half the screen and scrolls in its own box (its words, never a control: the cards and the bar stay on screen); a scrolling region must take the keyboard's focus (axe: scrollable-region-focusable)
    <section class={`strip ${f}${acting ? " acting" : ""}`} aria-label={playerLabel(f, store.names.value)} tabIndex={0}>
      <div class="strip-head">
        <h2 class="who">
          <PlayerName f={f} names={store.names.value} />
          {rating && (
            <span class="prating">
              {rating.now.rating}
              {rating.now.provisional && "?"}
            </span>
          )}
          {mine && <span class="muted">{t("common.youMark")}</span>}
        </h2>
        {/* a line of its own, kept on a desktop when empty: a chip coming and going moves nothing */}
        <p class="strip-status">
          {acting && (
            <span class="turn-chip">
              <span aria-hidden="true">▶ </span>
              {mine ? t("table.yourTurn") : t("table.theirTurn", { side: playerName(f, store.names.value) })}
            </span>
          )}
          {passed && <span class="pass-chip">{t("table.passed")}</span>}
        </p>
        <Counts p={p} tutorial={view.mode === "tutorial"} shuffles={shuffles} />
      </div>
      {view.mode !== "tutorial" && (
        <p class={`small${mine ? " slot-line" : ""}${secretStrategy ? " secret" : ""}`}>
          <StrategySlotCard p={p} />
          {slotText(p)}
          {p.used_strategies.length > 0 && (
            <>
              {" "}
              · {t("strategy.used")}
              {colon()}
              {p.used_strategies.map(strategyName).join(t("sep.list"))}
            </>
          )}
        </p>
      )}
      {p.deck_top && (
        <p class="small secret">
          {onlyYou("deck")}
          {t("table.deckTop", { card: cardName(p.deck_top) })}
        </p>
      )}
      {p.characters && (
        <p class="small secret">
          {mine ? (
            <>
              {onlyYou("chars")}
              {t("table.yourCharacters")}
            </>
          ) : (
            t("replay.characters")
          )}
          {colon()}
          {cardsIn(p.characters).map(cardName).join(t("sep.list"))}
        </p>
      )}
      {p.deck_order && (
        <p class="small secret deck-order">
          {t("replay.deckOrder")}
          {colon()}
          {p.deck_order.length === 0 ? t("common.none") : p.deck_order.map(cardName).join(" → ")}
        </p>
      )}
      {(p.reserve_known.length > 0 || p.discard_pile.length > 0) && (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: at most three lines, scrolling in their own box (a long discard pile late in the game must not push the action bar below a desktop's first screen); a scrolling region with nothing focusable in it must take the keyboard's focus to scroll (axe: scrollable-region-focusable)
        <section class="small piles" tabIndex={0} aria-label={pilesLabel(p)}>
          {p.reserve_known.length > 0 && (
            <span>
              {t("table.reserveKnown")}
              {colon()}
              {cardsIn(p.reserve_known).map(cardName).join(t("sep.list"))}
            </span>
          )}
          {p.reserve_known.length > 0 && p.discard_pile.length > 0 && " · "}
          {p.discard_pile.length > 0 && (
            <span>
              {t("table.discard")}
              {colon()}
              {p.discard_pile.map(cardName).join(t("sep.list"))}
            </span>
          )}
        </section>
      )}
    </section>
  );
}

/** What a strip's piles box holds, for its accessible name. */
function pilesLabel(p: PlayerView): string {
  const parts = [];
  if (p.reserve_known.length > 0) parts.push(t("table.reserveKnown"));
  if (p.discard_pile.length > 0) parts.push(t("table.discard"));
  return parts.join(" · ");
}

/** The round's strategy card: a face-down back while hidden, its face once known (flips, ≤ 200 ms). */
function StrategySlotCard({ p }: { p: PlayerView }) {
  const s = p.strategy;
  if (s.state === "none") return null;
  const known = s.state === "known";
  return (
    <span class={`strat-card ${p.faction}${known ? " face" : " back"}`} aria-hidden="true">
      <span class="inner">{known ? strategyName(s.strategy).slice(0, 2) : "?"}</span>
    </span>
  );
}

function PlayArea({ view, f, store, ended }: { view: View; f: Faction; store: GameStore; ended?: boolean }) {
  const p = playerOf(view, f);
  // the final table: cards to read, no controls (a game won by a claim ends mid-struggle)
  const targets = ended ? new Set<string>() : store.targets.value;
  const byCard = ended ? new Map() : store.legalCards.value;
  const mine = store.me.value === f;
  const busy = store.busy.value;
  const places = useRowPlaces(p.play_area);
  const row = useRef<HTMLUListElement>(null);
  // sized for the event's capacity from the first card on: the cards do not shrink as the area fills
  // (each card played moved every card of its row: layout shift)
  const shown = places.length > 0;
  useRowFit(row, Math.max(places.length, view.event?.capacity ?? 0), shown);
  useCardTravel(row, f, p);
  return (
    <section class={`playarea ${f}`} aria-label={t("table.playArea", { side: sideName(f) })}>
      <p class="small muted">
        {t("table.playArea", { side: sideName(f) })} · {t("table.capacityLeft", { n: p.capacity_left })}
      </p>
      {!shown ? (
        <p class="muted empty">{t("table.emptyArea")}</p>
      ) : (
        <ul class="cards-row" role="list" ref={row}>
          {places.map((place) => {
            // a discarded card's place, empty until a card is played into it (rowPlaces.ts)
            if (place.hole)
              return (
                <li key={`hole-${place.card}`} class="card-hole" aria-hidden="true">
                  <div class="card-slot" data-exhausted={place.sideways ? "true" : undefined} />
                </li>
              );
            const c = p.play_area.find((x) => x.card === place.card)!;
            const acts = mine ? byCard.get(c.card) : undefined;
            const key = refKey({ owner: f, card: c.card });
            const option = targets.has(key) ? optionForCard(myAnswers(view, store.role.value), key) : null;
            return (
              <li key={c.card} data-card={c.card}>
                <CardFace
                  name={c.card}
                  owner={f}
                  ready={c.ready}
                  value={c.value}
                  target={targets.has(key)}
                  selected={option !== null && pendingSelection.value === choiceKey(option)}
                >
                  {option && (
                    <button
                      type="button"
                      class="card-btn target-btn"
                      aria-pressed={pendingSelection.value === choiceKey(option)}
                      onClick={() => (pendingSelection.value = choiceKey(option))}
                      aria-label={`${t("card.select")}: ${cardName(c.card)}`}
                    >
                      {t("card.select")}
                    </button>
                  )}
                  {acts?.use_power && (
                    <button
                      type="button"
                      class="card-btn"
                      disabled={busy}
                      onClick={() => store.act(acts.use_power!)}
                      aria-label={`${t("action.use_power")}: ${cardName(c.card)}`}
                    >
                      {t("action.use_power")}
                    </button>
                  )}
                  {acts?.spend_influence && (
                    <button
                      type="button"
                      class="card-btn"
                      disabled={busy}
                      onClick={() => store.act(acts.spend_influence!)}
                      aria-label={`${t("action.spend_influence")}: ${cardName(c.card)}`}
                    >
                      {t("action.spend_influence")}
                    </button>
                  )}
                </CardFace>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

/** The bar: whose turn it is and the struggle's actions; on the final table (`ended`) only that the
 *  game is over. */
function ActionBar({ store, ended }: { store: GameStore; ended?: boolean }) {
  const view = store.view.value!;
  const legal: typeof store.legal.value = ended ? {} : store.legal.value;
  const me = store.me.value;
  const waiting = ended ? null : store.waitingFor.value;
  const busy = store.busy.value;
  let line: string;
  const names = store.names.value;
  if (ended) line = t("phase.game_over");
  else if (!me) line = waiting ? t("table.theirTurn", { side: playerName(waiting, names) }) : t(`phase.${view.phase}`);
  else if (view.pending && view.pending.owner !== me)
    line = t("table.waitingChoice", { side: playerName(view.pending.owner, names) });
  else if (waiting === me) line = t("table.yourTurn");
  else if (waiting) line = t("table.theirTurn", { side: playerName(waiting, names) });
  else line = t(`phase.${view.phase}`);
  const p = me ? playerOf(view, me) : null;
  const bar = useRef<HTMLDivElement>(null);
  useBottomBarRoom(bar);
  const myTurn = !!me && waiting === me && !view.pending;
  // A keyboard user's button disappears when the action it sent is applied and focus falls back to
  // the page; when it is our turn again, put it on the first action rather than the top of the page.
  useEffect(() => {
    if (!myTurn || busy) return;
    const active = document.activeElement;
    if (active && active !== document.body) return;
    bar.current?.querySelector<HTMLButtonElement>("button:not([disabled])")?.focus({ preventScroll: true });
  }, [myTurn, busy, view]);
  return (
    <div class="actionbar sticky" role="toolbar" aria-label={line} ref={bar}>
      <span class="bar-text">
        <span class={`turnline${waiting === me && me ? " mine" : ""}`} aria-live="polite">
          {/* the space left first: after the turn's words, it moved along the line at every turn */}
          {p && view.phase === "struggle" && <>{t("table.capacityLeft", { n: p.capacity_left })} · </>}
          {busy ? t("action.sending") : line}
        </span>
        {view.last_action_was_pass && waiting === me && legal.pass && (
          <span class="warn">{t("table.passWarning")}</span>
        )}
      </span>
      <span class="buttons">
        {legal.play_card && (
          <button type="button" class="primary" disabled={busy} onClick={() => store.act(legal.play_card![0]!)}>
            {t("action.play_card")}
          </button>
        )}
        {legal.pass && (
          <button type="button" disabled={busy} onClick={() => store.act(legal.pass![0]!)}>
            {t("action.pass")}
          </button>
        )}
      </span>
    </div>
  );
}
