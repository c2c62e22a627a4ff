import { sideName, t } from "../i18n";
import { FACTIONS, type RoomInfo } from "../net/protocol";
import type { GameStore } from "../state/store";
import { QrCode } from "./QrCode";
import { absoluteUrl, tokens } from "./services";
import { CopyField } from "./widgets";

/** The spectators' link, or `null` when the room does not allow spectators: the rule by which the
 *  server gives `CreatedRoom.watch_url` (every viewer of the lobby knows the room's options, not
 *  every viewer saw the creation's answer). */
function watchUrl(room: RoomInfo | null, code: string): string | null {
  return room?.options.spectators === "anyone_with_link" ? absoluteUrl(`/r/${code}/watch`) : null;
}

export function Lobby({ code, store }: { code: string; store: GameStore }) {
  const presence = store.presence.value!;
  const invite = tokens.getInvite(code);
  const watch = watchUrl(store.room.value, code);
  const seated = !store.isSpectator.value;
  return (
    <section class="panel lobby" aria-labelledby="lobby-h">
      <h2 id="lobby-h">{seated ? t("lobby.title") : t("lobby.titleWatch")}</h2>
      {seated &&
        (invite ? (
          <CopyField label={t("lobby.invite")} value={absoluteUrl(invite)} />
        ) : (
          <p>{t("lobby.inviteUnknown")}</p>
        ))}
      {watch !== null && <CopyField label={t("lobby.watch")} value={watch} />}
      <div class="qrs">
        {seated && invite && (
          <figure>
            <QrCode text={absoluteUrl(invite)} label={t("lobby.qrInvite")} />
            <figcaption>{t("lobby.qrInvite")}</figcaption>
          </figure>
        )}
        {watch !== null && (
          <figure>
            <QrCode text={watch} label={t("lobby.qrWatch")} />
            <figcaption>{t("lobby.qrWatch")}</figcaption>
          </figure>
        )}
      </div>
      {store.room.value?.options.reveal_at_end && <p class="notice">{t("room.revealsAtEnd")}</p>}
      <SeatList store={store} />
      <p>{t("header.spectators", { n: presence.spectators })}</p>
    </section>
  );
}

function SeatList({ store }: { store: GameStore }) {
  const presence = store.presence.value!;
  const me = store.me.value;
  return (
    <ul class="seats">
      {FACTIONS.map((f, i) => {
        const s = presence.seats[i]!;
        const state = !s.taken ? t("seat.empty") : s.connected ? t("seat.connected") : t("seat.away");
        return (
          <li key={f} class={f}>
            <span class={`dot ${s.connected ? "on" : "off"}`} aria-hidden="true" />
            <strong>{sideName(f)}</strong>
            {me === f && t("common.youMark")} — {state}
          </li>
        );
      })}
    </ul>
  );
}
