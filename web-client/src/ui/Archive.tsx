// The room's games (the archive): number, winner, how it ended, VP, date, a link to each finished
// game's replay page and the replay file of each game both players revealed; on the game-over
// screen and as the room's own page (`/r/{code}/games`). A rematch adds a game and keeps the others.
import { useEffect, useState } from "preact/hooks";
import { lang, type Names, playerName, t } from "../i18n";
import { type Faction, type ForfeitReason, type GameSummary, type Outcome, otherFaction } from "../net/protocol";
import { displayCode } from "../net/roomCode";
import { replayPage } from "../state/route";
import { ReplayFile } from "./ReplayPanel";
import { api, tokens } from "./services";
import { LanguagePicker } from "./widgets";

/** The room's page of games. */
export function archivePage(code: string): string {
  return `/r/${code}/games`;
}

/** Who won a finished game, in a few words. */
export function resultText(
  outcome: Outcome | null,
  forfeitWinner: Faction | null,
  forfeitReason: ForfeitReason | null = null,
  names: Names | null = null,
): string {
  // a game lost on time names its winner first, then why
  if (forfeitWinner && forfeitReason === "time")
    return `${t("over.winner", { side: playerName(forfeitWinner, names) })} — ${t("over.onTime", {
      side: playerName(otherFaction(forfeitWinner), names),
    })}`;
  if (forfeitWinner) return t("over.forfeit", { side: playerName(forfeitWinner, names) });
  if (forfeitReason === "both_out_of_time") return t("over.bothOutOfTime");
  if (!outcome) return "";
  return outcome.winner ? t("over.winner", { side: playerName(outcome.winner, names) }) : t("over.draw");
}

/** `/r/{code}/games`: the room's finished games, each with its replay, and the way back to the room. */
export function ArchivePage({ code }: { code: string }) {
  const title = `${t("archive.title")} · ${t("header.room", { code: displayCode(code) })}`;
  useEffect(() => {
    document.title = `${title} · ${t("app.title")}`;
  }, [title]);
  return (
    <div class="room spectator">
      <header class="topbar">
        <h1 class="code">{t("header.room", { code: displayCode(code) })}</h1>
        <LanguagePicker />
      </header>
      <main class="page">
        <Archive code={code} refresh="" />
        <p class="row">
          <a class="button" href={tokens.getToken(code) ? `/r/${code}` : `/r/${code}/watch`}>
            {t("archive.toRoom")}
          </a>
        </p>
      </main>
    </div>
  );
}

/** The archive of room `code`; fetched again when `refresh` changes (a game ended, a reveal). */
export function Archive({ code, refresh }: { code: string; refresh: string }) {
  const [games, setGames] = useState<GameSummary[] | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    api.games(code, tokens.getToken(code)).then(
      (a) => {
        if (!live) return;
        setGames(a.games);
        setFailed(false);
      },
      () => {
        if (live) setFailed(true);
      },
    );
    return () => {
      live = false;
    };
  }, [code, refresh]);
  const finished = (games ?? []).filter((g) => g.over);
  const date = new Intl.DateTimeFormat(lang.value, { dateStyle: "medium", timeStyle: "short" });
  return (
    <section class="archive panel" aria-labelledby="archive-h">
      <h3 id="archive-h">{t("archive.title")}</h3>
      {failed && <p class="error">{t("archive.failed")}</p>}
      {games && finished.length === 0 && <p class="muted">{t("archive.none")}</p>}
      {finished.length > 0 && (
        <div class="table-scroll">
          <table class="archive-table">
            <thead>
              <tr>
                <th scope="col">{t("archive.game")}</th>
                <th scope="col">{t("archive.result")}</th>
                <th scope="col">{t("archive.vp")}</th>
                <th scope="col">{t("archive.date")}</th>
                <th scope="col">{t("archive.replay")}</th>
              </tr>
            </thead>
            <tbody>
              {finished.map((g) => (
                <tr key={g.number}>
                  <th scope="row">{g.number}</th>
                  <td>
                    {resultText(g.outcome, g.forfeit_winner, g.forfeit_reason, g.names)}
                    {g.outcome && <span class="muted"> · {t(`over.by.${g.outcome.reason}`)}</span>}
                  </td>
                  <td>
                    {g.outcome
                      ? `${playerName("rebel", g.names)} ${g.outcome.vp[0]} – ${g.outcome.vp[1]} ${playerName("imperial", g.names)}`
                      : ""}
                  </td>
                  <td>{g.started_at === null ? "" : date.format(new Date(g.started_at * 1000))}</td>
                  <td class="archive-links">
                    <a class="watch-replay" href={replayPage(code, g.number)}>
                      {t("archive.watch")}
                    </a>
                    {g.replay_available ? (
                      <ReplayFile code={code} game={g.number} label={t("archive.download")} />
                    ) : (
                      <span class="muted">{t("archive.notRevealed")}</span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
