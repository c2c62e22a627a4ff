// The room's games (the archive): number, winner, how it ended, VP, date, and the replay file of
// each game both players revealed. A rematch adds a game and keeps the others.
import { useEffect, useState } from "preact/hooks";
import { lang, sideName, t } from "../i18n";
import type { GameSummary } from "../net/protocol";
import { replayUrl } from "./ReplayPanel";
import { api } from "./services";

function winnerText(g: GameSummary): string {
  if (g.forfeit_winner) return t("over.forfeit", { side: sideName(g.forfeit_winner) });
  if (!g.outcome) return "";
  return g.outcome.winner ? t("over.winner", { side: sideName(g.outcome.winner) }) : t("over.draw");
}

/** The archive of room `code`; fetched again when `refresh` changes (a game ended, a reveal). */
export function Archive({ code, refresh }: { code: string; refresh: string }) {
  const [games, setGames] = useState<GameSummary[] | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    api.games(code).then(
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
                    {winnerText(g)}
                    {g.outcome && <span class="muted"> · {t(`over.by.${g.outcome.reason}`)}</span>}
                  </td>
                  <td>
                    {g.outcome
                      ? `${sideName("rebel")} ${g.outcome.vp[0]} – ${g.outcome.vp[1]} ${sideName("imperial")}`
                      : ""}
                  </td>
                  <td>{g.started_at === null ? "" : date.format(new Date(g.started_at * 1000))}</td>
                  <td>
                    {g.replay_available ? (
                      <a href={replayUrl(code, g.number)} download={`evr-${code}-game-${g.number}.json`}>
                        {t("archive.download")}
                      </a>
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
