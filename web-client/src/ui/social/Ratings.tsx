// Ratings' public pages (proto/PROTOCOL.md, *Ratings*): a player's page `/#/players/{username}` (the
// rating, "1500?" while provisional; games and wins/losses/draws; the history as a small line chart
// and the rated games with their replays) and the leaderboard `/#/leaderboard` with the one sentence
// that explains the side edge. A server without ratings yet answers `not_found`: said plainly.
import { useEffect, useState } from "preact/hooks";
import type { AccountText } from "../../i18n/account";
import type { SocialText } from "../../i18n/social";
import { AccountError } from "../../net/account";
import type { Leaderboard, PlayerPage as Page, RatedGame, RoomInfo } from "../../net/protocol";
import { ratingText } from "../../state/rating";
import { changeText } from "../../state/ratingChange";
import { chartPoints, ratingsOverTime } from "../../state/ratingChart";
import { api, Failure, failure } from "../account/shared";
import { playerPage } from "./pages";
import { playerName, replayPage, sideName } from "./sides";

/** Loads once; a refusal becomes its text (the ratings' routes not there yet: `ratingsLater`). */
function useAnswer<T>(ask: () => Promise<T>, text: SocialText, account: AccountText) {
  const [value, setValue] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    ask().then(setValue, (err: unknown) =>
      setError(err instanceof AccountError && err.code === "not_found" ? text.ratingsLater : failure(account, err)),
    );
  }, []);
  return { value, error };
}

export function PlayerPage(props: { text: SocialText; account: AccountText; username: string }) {
  const { text } = props;
  const { value: p, error } = useAnswer(() => api.player(props.username), text, props.account);
  return (
    <>
      <h1>
        <bdi>{text.ratingTitle(props.username)}</bdi>
      </h1>
      <Failure error={error} />
      {p && (
        <>
          <p class="rating-big">
            <span class="rating-value">{ratingText(p.rating)}</span>{" "}
            <span class="muted small">± {p.rating.deviation}</span>
          </p>
          {p.rating.provisional && <p class="small muted">{text.provisional}</p>}
          <p>
            {text.ratedGames(p.rated_games)} · {text.wld(p.won, p.lost, p.drawn)}
          </p>
          {p.history.length === 0 ? (
            <p class="muted">{text.noRatedGames}</p>
          ) : (
            <>
              <h2>{text.history}</h2>
              <RatingChart text={text} history={p.history} />
              <RatedGames text={text} page={p} />
            </>
          )}
        </>
      )}
    </>
  );
}

const BOX = { width: 320, height: 120, pad: 8 };
/** Room left of the line for the highest and lowest rating's labels (they covered its first point). */
const LABELS = 30;

function RatingChart({ text, history }: { text: SocialText; history: readonly RatedGame[] }) {
  const ratings = ratingsOverTime(history);
  const { points, low, high } = chartPoints(ratings, BOX);
  return (
    <figure class="rating-chart">
      <svg
        viewBox={`${-LABELS} 0 ${BOX.width + LABELS} ${BOX.height}`}
        role="img"
        aria-label={text.chartLabel(ratings[0]!, ratings[ratings.length - 1]!, history.length)}
      >
        <text x={-LABELS} y={12} class="axis">
          {high}
        </text>
        <text x={-LABELS} y={BOX.height - 4} class="axis">
          {low}
        </text>
        <polyline points={points.map(([x, y]) => `${x},${y}`).join(" ")} />
        {points.map(([x, y]) => (
          <circle key={`${x}`} cx={x} cy={y} r={2.5} />
        ))}
      </svg>
    </figure>
  );
}

function RatedGames({ text, page }: { text: SocialText; page: Page }) {
  return (
    <div class="table-scroll">
      <table class="rated-games">
        <thead>
          <tr>
            <th scope="col">{text.opponent}</th>
            <th scope="col">{text.side}</th>
            <th scope="col">{text.result}</th>
            <th scope="col">{text.change}</th>
            <th scope="col">{text.replay}</th>
          </tr>
        </thead>
        <tbody>
          {page.history.map((g) => (
            <tr key={`${g.code}/${g.game_number}`}>
              <td>
                {g.opponent === null ? (
                  text.deletedPlayer
                ) : (
                  <a href={playerPage(g.opponent)}>
                    <bdi>{g.opponent}</bdi>
                  </a>
                )}{" "}
                <span class="muted small">({g.opponent_rating})</span>
              </td>
              <td>{sideName(g.side)}</td>
              <td>{text.ended[g.result]}</td>
              <td class={g.change >= 0 ? "gain" : "loss"}>
                {changeText(g.change)} → {g.rating_after}
              </td>
              <td>
                <a href={replayPage(g.code, g.game_number)}>{text.replay}</a>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function LeaderboardPage({ text, account }: { text: SocialText; account: AccountText }) {
  const { value: board, error } = useAnswer<Leaderboard>(() => api.leaderboard(), text, account);
  return (
    <>
      <h1>{text.leaderboard}</h1>
      <Failure error={error} />
      {board && (
        <>
          <p class="side-edge">{text.sideEdge(board.side_edge, sideName)}</p>
          {board.players.length === 0 ? (
            <p class="muted">{text.noLeaders(10)}</p>
          ) : (
            <div class="table-scroll">
              <table class="leaderboard">
                <thead>
                  <tr>
                    <th scope="col">{text.rank}</th>
                    <th scope="col">{text.player}</th>
                    <th scope="col">{text.rating}</th>
                    <th scope="col">{text.games}</th>
                  </tr>
                </thead>
                <tbody>
                  {board.players.map((p) => (
                    <tr key={p.username}>
                      <td>{p.rank}</td>
                      <td>
                        <a href={playerPage(p.username)}>
                          <bdi>{p.username}</bdi>
                        </a>
                      </td>
                      <td>
                        {p.rating} <span class="muted small">± {p.deviation}</span>
                      </td>
                      <td>{p.rated_games}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </>
      )}
    </>
  );
}

/** At game over in a rated room: each player's rating now and what the game changed ("+12", "−12"). */
export function RatingChanges({ room }: { room: RoomInfo }) {
  const r = room.ratings;
  if (!r?.some((s) => s && s.change !== null)) return null;
  return (
    <ul class="rating-changes">
      {(["rebel", "imperial"] as const).map((f, i) => {
        const s = r[i];
        return (
          s && (
            <li key={f}>
              <bdi>{playerName(f, room.names)}</bdi> {ratingText(s.now)}
              {s.change !== null && <span class="rating-change"> ({changeText(s.change)})</span>}
            </li>
          )
        );
      })}
    </ul>
  );
}
