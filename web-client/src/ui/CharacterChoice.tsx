import { useState } from "preact/hooks";
import { type Character, cardsIn, IMPERIAL_CHARACTERS, REBEL_CHARACTERS } from "../data/cards";
import { colon, powerText, sideName, t } from "../i18n";
import { otherFaction } from "../net/protocol";
import { characterPool, matchCharacterChoice, playerOf } from "../state/derived";
import type { GameStore } from "../state/store";
import { CardFace } from "./Card";
import { InfoButton, inspectHandlers } from "./CardDetail";
import { PlayerName } from "./widgets";

export function CharacterChoice({ store }: { store: GameStore }) {
  const view = store.view.value!;
  const me = store.me.value;
  const [picked, setPicked] = useState<Character[]>([]);

  if (!me) {
    return (
      <section class="panel">
        <h2>{t("phase.character_choice")}</h2>
        <p>{t("chars.spectator")}</p>
        <ul>
          {(["rebel", "imperial"] as const).map((f) => (
            <li key={f}>
              <PlayerName f={f} names={store.names.value} />
              {colon()}
              {playerOf(view, f).characters_chosen ? t("strategy.chosen") : t("strategy.notChosen")}
            </li>
          ))}
        </ul>
      </section>
    );
  }

  const mine = playerOf(view, me);
  const opp = playerOf(view, otherFaction(me));
  const pool = characterPool(view);
  const locked = mine.characters_chosen || pool.length === 0;
  const all = me === "rebel" ? REBEL_CHARACTERS : IMPERIAL_CHARACTERS;
  const action = matchCharacterChoice(view, picked);

  const toggle = (c: Character) => {
    if (locked) return;
    setPicked((p) => (p.includes(c) ? p.filter((x) => x !== c) : p.length < 4 ? [...p, c] : p));
  };

  return (
    <section class="panel chars" aria-labelledby="chars-h">
      <h2 id="chars-h">{t("chars.title")}</h2>
      {/* Sides swap with every rematch: say which one this player has now. */}
      <p class={`you-play side-${me}`}>
        {t("chars.youPlay", { side: sideName(me), game: store.room.value?.game_number ?? 1 })}
      </p>
      <p>{t("chars.help")}</p>
      {store.room.value?.options.reveal_at_end && <p class="notice">{t("room.revealsAtEnd")}</p>}
      <p class="muted">{opp.characters_chosen ? t("chars.opponentDone") : t("chars.opponentChoosing")}</p>
      {locked ? (
        <>
          <p class="big" role="status">
            {t("chars.locked")}
          </p>
          {mine.characters && (
            <div class="secret">
              <span class="badge secret-mark">{t("common.onlyYou")}</span>
              <div class="cards-row">
                {cardsIn(mine.characters).map((c) => (
                  <CardFace key={c} name={c} owner={me} />
                ))}
              </div>
            </div>
          )}
        </>
      ) : (
        <>
          <ul class="pick-grid" role="list">
            {all.map((c) => {
              const on = picked.includes(c);
              return (
                <li key={c}>
                  <button
                    type="button"
                    class={`pick${on ? " on" : ""}`}
                    aria-pressed={on}
                    onClick={() => toggle(c)}
                    disabled={!on && picked.length >= 4}
                    {...inspectHandlers({ name: c, owner: me }, false)}
                  >
                    {/* named by its content: the face (an image named "<name>, <side>, …") and its power */}
                    <CardFace name={c} owner={me} selected={on} inspectable={false} />
                    <span class="sr-only">
                      {colon()}
                      {powerText(c)}
                    </span>
                  </button>
                  <InfoButton card={{ name: c, owner: me }} />
                </li>
              );
            })}
          </ul>
          <div class="actionbar">
            <span aria-live="polite">{t("chars.count", { n: picked.length })}</span>
            <button
              type="button"
              class="primary"
              disabled={!action || store.busy.value}
              onClick={() => action && store.act(action)}
            >
              {store.busy.value ? t("action.sending") : t("chars.confirm")}
            </button>
          </div>
        </>
      )}
    </section>
  );
}
