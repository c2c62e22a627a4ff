// The record between two friends (GET /api/account/friends/{username}/record): wins, losses, draws and
// unfinished games by side, and the last games together with their replays (the room's replay page,
// state/route.ts).
import { useEffect, useState } from "preact/hooks";
import type { AccountText } from "../../i18n/account";
import type { SocialText } from "../../i18n/social";
import type { HeadToHead } from "../../net/protocol";
import { api, Failure, useStep } from "../account/shared";
import { replayPage, sideName } from "./sides";

export function HeadToHeadPanel(props: { text: SocialText; account: AccountText; username: string }) {
  const { text, username } = props;
  const [record, setRecord] = useState<HeadToHead | null>(null);
  const step = useStep(props.account);
  useEffect(() => {
    void step.run(() => api.record(username).then(setRecord));
  }, [username]);
  return (
    <section class="head-to-head" aria-label={`${text.record}: ${username}`}>
      <Failure error={step.error} />
      {record && (
        <>
          <ul class="plain">
            <li>{text.recordLine(sideName("rebel"), record.as_rebel)}</li>
            <li>{text.recordLine(sideName("imperial"), record.as_imperial)}</li>
          </ul>
          <h4>{text.lastGames}</h4>
          {record.last_games.length === 0 ? (
            <p class="muted">{text.noGames}</p>
          ) : (
            <ul class="plain games-together">
              {record.last_games.map((g) => (
                <li key={`${g.code}/${g.game_number}`}>
                  {g.started_at !== null && `${text.date(g.started_at * 1000)} · `}
                  {text.asSide(sideName(g.you))} · {text.ended[g.end]}
                  {g.end !== "unfinished" && (
                    <>
                      {" · "}
                      <a href={replayPage(g.code, g.game_number)}>{text.replay}</a>
                    </>
                  )}
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}
