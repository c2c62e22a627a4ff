// The open challenges on the friends page: incoming ones to accept (the room is made with both seats
// kept; this device takes its seat and goes there) or decline, outgoing ones to withdraw, and who may
// challenge this account. The list is the poll's (challenges.ts), refreshed after every answer.
import { t } from "../../i18n";
import type { AccountText } from "../../i18n/account";
import type { SocialText } from "../../i18n/social";
import type { Challenge, TimeControl, WhoMayChallenge } from "../../net/protocol";
import { api, Failure, useStep } from "../account/shared";
import { acceptChallenge, challengeList, refreshChallenges } from "./challenges";
import { Radio } from "./choices";
import { sideName } from "./sides";

function clockText(text: SocialText, clock: TimeControl | null): string {
  if (!clock) return text.noClock;
  if ("days_per_decision" in clock) return text.overDays(clock.days_per_decision);
  return text.liveClock(Math.round(clock.bank_secs / 60), clock.increment_secs);
}

/** The terms as the one reading them plays them: the side is the reader's (the challenged plays the
 *  other side than the challenger's, and random stays random). */
function terms(text: SocialText, c: Challenge, incoming: boolean): string {
  const mine = incoming ? (c.side === "rebel" ? "imperial" : c.side === "imperial" ? "rebel" : "random") : c.side;
  return text.challengeTerms({
    side: text.yourSide(mine === "random" ? t("side.random") : sideName(mine)),
    clock: clockText(text, c.clock),
    rated: c.rated,
    spectators: t(`spectators.${c.spectators}`),
  });
}

export function ChallengesSection({ text, account }: { text: SocialText; account: AccountText }) {
  const list = challengeList.value;
  const step = useStep(account);
  const answer = (what: () => Promise<unknown>) =>
    step.run(async () => {
      await what();
      await refreshChallenges();
    });
  const setWho = (who: WhoMayChallenge) =>
    step.run(async () => {
      await api.challengeSettings(who);
      await refreshChallenges();
    });
  return (
    <section class="panel" aria-labelledby="challenges-h">
      <h2 id="challenges-h">{text.challenges}</h2>
      <Failure error={step.error} />
      {list && list.incoming.length + list.outgoing.length === 0 && <p class="muted">{text.noChallenges}</p>}
      {list && list.incoming.length > 0 && (
        <ul class="plain challenge-list incoming" aria-live="polite">
          {list.incoming.map((c) => (
            <li key={c.id}>
              <strong>
                <bdi>{text.incomingChallenge(c.from)}</bdi>
              </strong>
              <br />
              <span class="small">{terms(text, c, true)}</span>
              <span class="row">
                <button
                  type="button"
                  class="primary"
                  disabled={step.busy}
                  onClick={() => void step.run(() => acceptChallenge(c.id))}
                >
                  {text.accept}
                </button>
                <button
                  type="button"
                  disabled={step.busy}
                  onClick={() => void answer(() => api.declineChallenge(c.id))}
                >
                  {text.decline}
                </button>
              </span>
            </li>
          ))}
        </ul>
      )}
      {list && list.outgoing.length > 0 && (
        <ul class="plain challenge-list outgoing">
          {list.outgoing.map((c) => (
            <li key={c.id}>
              <bdi>{text.outgoingChallenge(c.to)}</bdi>
              <br />
              <span class="small">{terms(text, c, false)}</span>
              <span class="row">
                <button
                  type="button"
                  disabled={step.busy}
                  onClick={() => void answer(() => api.withdrawChallenge(c.id))}
                >
                  {text.withdraw}
                </button>
              </span>
            </li>
          ))}
        </ul>
      )}
      {list && (
        <Radio
          legend={text.whoMayChallenge}
          name="who_may_challenge"
          value={list.who_may_challenge}
          onChange={(v) => void setWho(v)}
          options={[
            ["friends", text.whoFriends],
            ["nobody", text.whoNobody],
          ]}
        />
      )}
    </section>
  );
}
