// The open challenges as last asked (GET /api/account/challenges), shared by the notice on every page
// and the friends page; the poll that keeps them fresh (state/challengePoll.ts) runs while signed in.
import { signal } from "@preact/signals";
import type { ChallengeList } from "../../net/protocol";
import { browserPollEnv, pollWhileVisible } from "../../state/challengePoll";
import { takeAccountSeat } from "../account/flows";
import { api } from "../account/shared";
import { navigate } from "../router";
import { tokens } from "../services";

export const challengeList = signal<ChallengeList | null>(null);
/** The incoming challenges whose notice was put off ("Later"): the notice shows again for a new one. */
export const putOff = signal<ReadonlySet<string>>(new Set());

export const refreshChallenges = (): Promise<void> =>
  api.challenges().then((list) => {
    challengeList.value = list;
  });

let stop: (() => void) | null = null;
/** Polls while `username` is signed in (null: stops, and forgets the list). */
export function followChallenges(username: string | null): void {
  stop?.();
  stop = null;
  if (username === null) {
    challengeList.value = null;
    return;
  }
  stop = pollWhileVisible(refreshChallenges, browserPollEnv());
}

/** Accepts: the server makes the room with both seats kept; this device takes its seat and goes there. */
export async function acceptChallenge(id: string): Promise<void> {
  const { code } = await api.acceptChallenge(id);
  await takeAccountSeat(api, tokens, code);
  await refreshChallenges().catch(() => undefined);
  navigate(`/r/${code}`);
}
