// The open challenges as last asked (GET /api/account/challenges), shared by the notice on every page
// and the friends page. While signed in they are kept fresh by the account's event stream (GET
// /api/account/events, Server-Sent Events: "challenges" when one was made to or by this account,
// accepted, declined or withdrawn, on whichever server node; "friends" for a friend request received
// or one's own accepted, which the friends page follows) and by a slow poll
// (state/challengePoll.ts) for what no event tells: an expiry, a stream cut.
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

/** Counts the account's friends news (a request received, its own accepted) heard while the page was
 *  open: an open friends page asks for its list again at each. */
export const friendsNews = signal(0);

/** A challenge this account sent that was accepted while the page was open: its room, to play. */
export const acceptedRoom = signal<{ code: string; by: string } | null>(null);

export async function refreshChallenges(): Promise<void> {
  const before = challengeList.value;
  const list = await api.challenges();
  challengeList.value = list;
  // a challenge sent that left the open ones while the page was open was accepted when the server
  // lists it with its room (otherwise it was declined, withdrawn or expired); a room this device
  // already plays needs no telling
  for (const c of before?.outgoing ?? []) {
    if (list.outgoing.some((o) => o.id === c.id)) continue;
    const accepted = list.accepted.find((a) => a.id === c.id);
    if (accepted && !tokens.getToken(accepted.code)) acceptedRoom.value = { code: accepted.code, by: accepted.to };
  }
}

/** The account's Server-Sent Events (kept here, not with the routes in net/account.ts, which the page's
 *  own script holds: its download budget has no bytes to spare). */
const ACCOUNT_EVENTS_PATH = "/api/account/events";
/** The poll beside the event stream: only for what no event tells. Without the stream: 15 s. */
const POLL_BESIDE_EVENTS_MS = 60_000;

let stop: (() => void) | null = null;
/** Follows the challenges while `username` is signed in (null: stops, and forgets the list). */
export function followChallenges(username: string | null): void {
  stop?.();
  stop = null;
  if (username === null) {
    challengeList.value = null;
    return;
  }
  if (typeof EventSource === "undefined") {
    stop = pollWhileVisible(refreshChallenges, browserPollEnv()).stop;
    return;
  }
  const poll = pollWhileVisible(refreshChallenges, browserPollEnv(), POLL_BESIDE_EVENTS_MS);
  const events = new EventSource(ACCOUNT_EVENTS_PATH);
  events.addEventListener("challenges", poll.poke);
  events.addEventListener("friends", () => {
    friendsNews.value += 1;
  });
  // connected again after a cut: what was said meanwhile is unknown (the first time, the poll has
  // just asked)
  let opened = false;
  events.addEventListener("open", () => {
    if (opened) poll.poke();
    opened = true;
  });
  stop = () => {
    events.close();
    poll.stop();
  };
}

/** The challenger opens the room of an accepted challenge: this device takes its seat and goes there. */
export async function playAccepted(code: string): Promise<void> {
  await takeAccountSeat(api, tokens, code);
  acceptedRoom.value = null;
  navigate(`/r/${code}`);
}

/** Accepts: the server makes the room with both seats kept; this device takes its seat and goes there. */
export async function acceptChallenge(id: string): Promise<void> {
  const { code } = await api.acceptChallenge(id);
  await takeAccountSeat(api, tokens, code);
  await refreshChallenges().catch(() => undefined);
  navigate(`/r/${code}`);
}
