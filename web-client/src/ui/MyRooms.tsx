// The landing page's list of the rooms this device holds a seat in, the one opened last first — but
// the rooms played over days where it is your turn come first, the nearest deadline first, with the
// time left (state/rooms.ts): each a link back into its room with the players' names and where its
// game stands, as the server tells that seat (`GET /api/rooms/{code}/seat`; the client decides
// nothing of it). Signed in, the account's rooms this device does not hold are listed too (their
// summaries from the account).
import { useEffect, useState } from "preact/hooks";
import { errorMessage, lang, playerLabel, t } from "../i18n";
import { timeLeft } from "../i18n/time";
import { ApiError } from "../net/http";
import { otherFaction, type SeatSummary } from "../net/protocol";
import { displayCode } from "../net/roomCode";
import {
  type AccountRoom,
  accountListTitle,
  accountRooms,
  type ListedRoom,
  orderRooms,
  withAccountRooms,
  yourTimeLeft,
} from "../state/rooms";
import { api, tokens } from "./services";

/** At most this many rooms are asked about (the newest); the list says how many more there are. */
const SHOWN = 12;

/** How often the times left are counted down on the page. */
const TICK_MS = 15_000;

type Row = ListedRoom & { error: string | null; gone?: boolean; open?: AccountRoom["open"] };

export function MyRooms() {
  const [rows, setRows] = useState<Row[]>(() =>
    tokens.rooms().map((r) => ({ code: r.code, summary: null, at: 0, error: null, gone: false })),
  );
  const [now, setNow] = useState(() => Date.now());
  const total = rows.length;
  const asked = rows.slice(0, SHOWN);
  const codes = asked.map((r) => r.code).join(",");
  // signed in, the account's rooms this device does not hold (ui/account/)
  const shown = orderRooms(withAccountRooms<Row>(asked, accountRooms.value), now);
  const anyDue = shown.some((r) => yourTimeLeft(r, now) !== null);
  useEffect(() => {
    if (!anyDue) return;
    const id = setInterval(() => setNow(Date.now()), TICK_MS);
    return () => clearInterval(id);
  }, [anyDue]);
  useEffect(() => {
    let live = true;
    for (const { code } of tokens.rooms().slice(0, SHOWN)) {
      const token = tokens.getToken(code);
      if (!token) continue;
      api.seatSummary(code, token).then(
        (summary) => {
          if (!live) return;
          const at = Date.now();
          setNow(at);
          setRows((rs) => rs.map((r) => (r.code === code ? { ...r, summary, at, error: null } : r)));
        },
        (err: unknown) => {
          if (!live) return;
          // a room that no longer exists, or no longer knows this seat, is offered to be forgotten
          const gone = err instanceof ApiError && (err.code === "room_not_found" || err.code === "bad_token");
          const error = err instanceof ApiError ? errorMessage(err.code, err.message) : String(err);
          setRows((rs) => rs.map((r) => (r.code === code ? { ...r, error, gone } : r)));
        },
      );
    }
    return () => {
      live = false;
    };
  }, [codes]);
  if (shown.length === 0) return null;
  const forget = (code: string) => {
    tokens.forget(code);
    setRows((rs) => rs.filter((r) => r.code !== code));
  };
  return (
    <section class="panel my-rooms" aria-labelledby="my-rooms-h">
      <h2 id="my-rooms-h">{accountListTitle.value ?? t("rooms.title")}</h2>
      <ul class="room-list">
        {shown.map((r) => (
          <li key={r.code} class={`room-row${r.summary ? ` state-${r.summary.state}` : ""}`}>
            <a class="room-link" href={`/r/${r.code}`} onClick={r.open}>
              {displayCode(r.code)}
            </a>
            {r.summary ? (
              <>
                <span class="room-players">{players(r.summary)}</span>
                <span class={`room-state${r.summary.state === "your_turn" ? " mine" : ""}`}>
                  {stateText(r.summary)}
                  {yourTimeLeft(r, now) !== null && (
                    <span class="left"> · {timeLeft(lang.value, yourTimeLeft(r, now)!)}</span>
                  )}
                </span>
              </>
            ) : r.error ? (
              <span class="muted small">
                {r.error}
                {r.gone && (
                  <>
                    {" "}
                    <button type="button" class="link" onClick={() => forget(r.code)}>
                      {t("rooms.forget")}
                    </button>
                  </>
                )}
              </span>
            ) : (
              <span class="muted small">{t("rooms.loading")}</span>
            )}
          </li>
        ))}
      </ul>
      {total > SHOWN && <p class="small muted">{t("rooms.more", { n: total - SHOWN })}</p>}
    </section>
  );
}

/** "You (Rebel) vs Ben (Imperial)": this seat first. */
function players(s: SeatSummary): string {
  const them = otherFaction(s.you);
  const opponent = s.opponent.kind === "computer" ? t(`opponent.${s.opponent.level}`) : playerLabel(them, s.names);
  return t("rooms.versus", { you: playerLabel(s.you, s.names), them: opponent });
}

/** Where the game stands, from this seat's side. */
function stateText(s: SeatSummary): string {
  const game = s.game_number > 1 ? ` · ${t("rooms.game", { n: s.game_number })}` : "";
  switch (s.state) {
    case "waiting_for_opponent":
      return t("rooms.waiting");
    case "your_turn":
      return t("rooms.yourTurn") + game;
    case "their_turn":
      return t("rooms.theirTurn") + game;
    case "over": {
      const winner = s.forfeit_winner ?? s.outcome?.winner ?? null;
      const score = s.outcome ? ` ${s.vp[s.you === "rebel" ? 0 : 1]}–${s.vp[s.you === "rebel" ? 1 : 0]}` : "";
      if (!winner) return t("rooms.draw") + score + game;
      return (winner === s.you ? t("rooms.won") : t("rooms.lost")) + score + game;
    }
  }
}
