// The texts of friends, challenges and ratings (ui/social/), one file per language (i18n/social/),
// loaded the first time something of them is shown in that language (i18n/onDemand.ts): the page's
// download budget (scripts/budget.mjs) has no room for them. Their routes' error texts are the account
// pack's (i18n/account.ts). Side names, time controls and spectators are the page's own texts.
import type { Faction, SideEdge } from "../net/protocol";
import { textsOnDemand } from "./onDemand";

export type SocialText = {
  // friends
  readonly friends: string;
  readonly friendsLink: string;
  readonly signInFirst: string;
  readonly noFriends: string;
  readonly online: string;
  readonly atTable: string;
  readonly offline: string;
  readonly addTitle: string;
  readonly add: string;
  readonly requestSent: (username: string) => string;
  readonly nowFriends: (username: string) => string;
  readonly addFromGame: string;
  readonly incomingRequests: string;
  readonly outgoingRequests: string;
  readonly accept: string;
  readonly decline: string;
  readonly withdraw: string;
  readonly remove: string;
  readonly removeConfirm: (username: string) => string;
  readonly block: string;
  readonly blockConfirm: (username: string) => string;
  readonly blocked: string;
  readonly unblock: string;
  readonly unblockConfirm: (username: string) => string;
  readonly yes: string;
  readonly cancel: string;
  // challenges
  readonly challenge: string;
  readonly challengeTitle: (username: string) => string;
  readonly rated: string;
  readonly ratedHint: string;
  readonly send: string;
  readonly challenges: string;
  readonly incomingChallenge: (from: string) => string;
  readonly outgoingChallenge: (to: string) => string;
  readonly challengeTerms: (c: { side: string; clock: string; rated: boolean; spectators: string }) => string;
  readonly yourSide: (side: string) => string;
  readonly noChallenges: string;
  readonly newChallenges: (n: number) => string;
  readonly see: string;
  /** a challenge sent was accepted (its room is made): the challenger's notice */
  readonly acceptedBy: (username: string) => string;
  readonly play: string;
  readonly dismiss: string;
  readonly whoMayChallenge: string;
  readonly whoFriends: string;
  readonly whoNobody: string;
  readonly saved: string;
  readonly liveClock: (minutes: number, increment: number) => string;
  readonly overDays: (days: number) => string;
  readonly noClock: string;
  // head to head
  readonly record: string;
  readonly recordLine: (side: string, r: { won: number; lost: number; drawn: number; unfinished: number }) => string;
  readonly lastGames: string;
  readonly noGames: string;
  readonly ended: { readonly won: string; readonly lost: string; readonly drawn: string; readonly unfinished: string };
  readonly asSide: (side: string) => string;
  readonly replay: string;
  readonly date: (ms: number) => string;
  // ratings
  readonly ratingTitle: (username: string) => string;
  readonly rating: string;
  readonly provisional: string;
  readonly ratedGames: (n: number) => string;
  readonly wld: (won: number, lost: number, drawn: number) => string;
  readonly history: string;
  readonly chartLabel: (from: number, to: number, games: number) => string;
  readonly noRatedGames: string;
  readonly opponent: string;
  readonly side: string;
  readonly result: string;
  readonly change: string;
  readonly deletedPlayer: string;
  readonly leaderboard: string;
  readonly rank: string;
  readonly player: string;
  readonly games: string;
  readonly noLeaders: (minGames: number) => string;
  readonly sideEdge: (edge: SideEdge, sideName: (f: Faction) => string) => string;
  readonly ratingsLater: string;
};

const texts = textsOnDemand<SocialText>({
  en: () => import("./social/en").then((m) => m.text),
  "zh-Hant": () => import("./social/zhHant").then((m) => m.text),
  ja: () => import("./social/ja").then((m) => m.text),
});

export const loadSocial = texts.load;
export const socialIn = texts.in;
