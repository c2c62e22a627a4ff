import { useState } from "preact/hooks";
import { errorMessage, playerName, sideName, t } from "../i18n";
import { ApiError } from "../net/http";
import { FACTIONS, type RoomInfo } from "../net/protocol";
import { displayCode } from "../net/roomCode";
import type { GameStore } from "../state/store";
import { QrCode } from "./QrCode";
import { absoluteUrl, api, tokens } from "./services";
import { CopyField } from "./widgets";

/** The spectators' link, or `null` when the room does not allow spectators: the rule by which the
 *  server gives `CreatedRoom.watch_url` (every viewer of the lobby knows the room's options, not
 *  every viewer saw the creation's answer). */
function watchUrl(room: RoomInfo | null, code: string): string | null {
  return room?.options.spectators === "anyone_with_link" ? absoluteUrl(`/r/${code}/watch`) : null;
}

export function Lobby({ code, store }: { code: string; store: GameStore }) {
  const presence = store.presence.value!;
  const [invite, setInvite] = useState(() => tokens.getInvite(code));
  const [joinCode, setJoinCode] = useState(() => tokens.getJoinCode(code));
  const watch = watchUrl(store.room.value, code);
  const seated = !store.isSpectator.value;
  return (
    <section class="panel lobby" aria-labelledby="lobby-h">
      <h2 id="lobby-h">{seated ? t("lobby.title") : t("lobby.titleWatch")}</h2>
      {seated && invite && <CopyField label={t("lobby.invite")} value={absoluteUrl(invite)} />}
      {seated && joinCode && (
        <p class="join-code">
          {/* the two codes a friend types on the start page, side by side */}
          {t("lobby.roomCode")} <strong class="code-digits">{displayCode(code)}</strong>
          {" · "}
          {t("lobby.joinCode")} <strong class="code-digits join-digits">{joinCode}</strong>
          <span class="small muted"> — {t("lobby.joinCodeHint")}</span>
        </p>
      )}
      {seated && (
        <NewInvite
          code={code}
          known={!!invite}
          onMade={(url, digits) => {
            tokens.setInvite(code, url);
            tokens.setJoinCode(code, digits);
            setInvite(url);
            setJoinCode(digits);
          }}
        />
      )}
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

/** A new invite link and join code (the old ones stop working): for a creator whose device does
 *  not hold them (their seat was moved here) or whose join code was guessed at too often. */
function NewInvite(props: { code: string; known: boolean; onMade: (url: string, joinCode: string) => void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const make = async () => {
    const token = tokens.getToken(props.code);
    if (!token) return;
    setBusy(true);
    setError(null);
    try {
      const fresh = await api.newInvite(props.code, token);
      props.onMade(fresh.invite_url, fresh.join_code);
    } catch (err) {
      setError(err instanceof ApiError ? errorMessage(err.code, err.message) : String(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div class="new-invite">
      {!props.known && <p>{t("lobby.inviteUnknown")}</p>}
      <button type="button" class={props.known ? "link" : ""} disabled={busy} onClick={() => void make()}>
        {t("lobby.newInvite")}
      </button>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

function SeatList({ store }: { store: GameStore }) {
  const presence = store.presence.value!;
  const me = store.me.value;
  const names = store.names.value;
  return (
    <ul class="seats">
      {FACTIONS.map((f, i) => {
        const s = presence.seats[i]!;
        const state = !s.taken ? t("seat.empty") : s.connected ? t("seat.connected") : t("seat.away");
        const name = names[i];
        return (
          <li key={f} class={f}>
            <span class={`dot ${s.connected ? "on" : "off"}`} aria-hidden="true" />
            <strong>{name ? playerName(f, names) : sideName(f)}</strong>
            {name && <span class="muted"> ({sideName(f)})</span>}
            {me === f && t("common.youMark")} — {state}
          </li>
        );
      })}
    </ul>
  );
}
