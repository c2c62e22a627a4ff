// The finished game's replay: each player may agree to reveal everything in it (both must, the
// file holds every secret choice); once both did, anyone in the room may download the file and
// check it with `evr verify` (proto/REPLAY.md).
import { playerName, t } from "../i18n";
import { type Faction, otherFaction, type RoomInfo } from "../net/protocol";
import { replayPage } from "../state/route";
import { tokens } from "./services";

/** Where the replay file of game `game` of room `code` is served. */
export function replayUrl(code: string, game: number): string {
  return `/api/rooms/${encodeURIComponent(code)}/games/${game}/replay`;
}

/** The link that saves game `game`'s replay file. A room without spectators gives the file to its
 *  players only, with a seat's token, which a link cannot carry: on a device holding one, the click
 *  fetches the file with the token and saves what came. */
export function ReplayFile({ code, game, label, button }: { code: string; game: number; label: string; button?: 1 }) {
  const url = replayUrl(code, game);
  const file = `evr-${code}-game-${game}.json`;
  const token = tokens.getToken(code);
  const save = (e: Event) => {
    if (!token) return;
    e.preventDefault();
    void fetch(url, { headers: { authorization: `Bearer ${token}` } })
      .then((r) => (r.ok ? r.blob() : Promise.reject()))
      .then((b) => {
        const a = document.createElement("a");
        a.href = URL.createObjectURL(b);
        a.download = file;
        a.click();
        setTimeout(() => URL.revokeObjectURL(a.href), 1e4);
      });
  };
  return (
    <a class={button && "button"} href={url} download={file} onClick={save}>
      {label}
    </a>
  );
}

export function ReplayPanel(props: { room: RoomInfo; me: Faction | null; onReveal: () => void }) {
  const { room, me } = props;
  if (!room.fairness) return null; // a game stored before verifiable replays
  const agreed = room.reveal_agreed;
  const both = agreed[0] && agreed[1];
  const mine = me ? agreed[me === "rebel" ? 0 : 1] : false;
  const other = me ? otherFaction(me) : null;
  const theirs = other ? agreed[other === "rebel" ? 0 : 1] : false;
  const file = `evr-${room.code}-game-${room.game_number}.json`;
  return (
    <section class="replay-panel panel" aria-labelledby="replay-h">
      <h3 id="replay-h">{t("reveal.title")}</h3>
      <p>
        <a class="button watch-replay" href={replayPage(room.code, room.game_number)}>
          {t("replay.watch")}
        </a>
      </p>
      {both ? (
        <>
          <p>
            <ReplayFile code={room.code} game={room.game_number} label={t("reveal.download")} button={1} />
          </p>
          <p class="small muted">
            <code>{t("reveal.verify", { file })}</code>
          </p>
        </>
      ) : (
        <>
          <p class="small">{t("reveal.explain")}</p>
          {me && !mine && (
            <p>
              <button type="button" class="reveal-agree" onClick={props.onReveal}>
                {t("reveal.agree")}
              </button>
            </p>
          )}
          <p role="status" class="reveal-status">
            {agreementText(me, mine, theirs, other, room)}
          </p>
        </>
      )}
    </section>
  );
}

/** Where the agreements stand, as the room tells them: before anyone agreed, that both must. */
function agreementText(me: Faction | null, mine: boolean, theirs: boolean, other: Faction | null, room: RoomInfo) {
  const computer = room.options.opponent?.kind === "computer";
  if (me && other) {
    const them = computer ? t("reveal.computer") : playerName(other, room.names);
    if (mine) return t("reveal.youAgreedWaiting", { side: them });
    if (theirs) return computer ? t("reveal.computerAgreed") : t("reveal.theyAgreedYourTurn", { side: them });
    return t("reveal.bothMust");
  }
  const agreed = room.reveal_agreed;
  if (agreed[0] || agreed[1]) {
    const side: Faction = agreed[0] ? "rebel" : "imperial";
    return t("reveal.oneAgreed", {
      side: playerName(side, room.names),
      other: playerName(otherFaction(side), room.names),
    });
  }
  return t("reveal.notYet");
}
