// The texts of accounts (passkeys, sign-in, the account page, the mailed links' pages) and the error
// texts of the account routes, one file per language (i18n/account/), loaded the first time
// something of accounts is shown in that language (i18n/onDemand.ts): an account is an upgrade few
// visits touch, and the page's download budget (scripts/budget.mjs) has no room for them.
import type { PasskeyInfo, SessionInfo } from "../net/protocol";
import { textsOnDemand } from "./onDemand";

/** The error codes only the account routes give (proto/PROTOCOL.md, *Accounts*): their texts are
 *  here, not in the language packs (pack.ts). */
export type AccountErrorCode =
  | "not_signed_in"
  | "accounts_disabled"
  | "bad_username"
  | "username_taken"
  | "username_reserved"
  | "passkey_refused"
  | "ceremony_expired"
  | "last_way_to_sign_in"
  | "sign_in_link_invalid"
  | "seat_not_kept"
  | "confirmation_mismatch"
  | "player_not_found"
  | "not_friends"
  | "challenges_closed"
  | "too_many_challenges"
  | "too_many_friends"
  | "player_blocked"
  | "challenge_not_found"
  | "no_friend_request";

export type AccountText = {
  readonly errors: { readonly [C in AccountErrorCode]: string };
  /** The landing page's offer, and the room page's link. */
  readonly keep: string;
  readonly keepOffer: string;
  readonly signIn: string;
  readonly signedInAs: (username: string) => string;
  readonly yourAccount: string;
  /** The landing page's room list, signed in. */
  readonly listTitle: string;
  /** Passkeys work only on the server's host name. */
  readonly otherHost: (host: string) => string;
  readonly openThere: string;
  readonly noPasskeys: string;
  readonly cancelled: string;
  // the account page, signed out
  readonly title: string;
  readonly explain: string;
  readonly createTitle: string;
  readonly username: string;
  readonly usernameHint: string;
  readonly create: string;
  readonly waiting: string;
  readonly signInTitle: string;
  readonly signInPasskey: string;
  readonly emailLink: string;
  readonly email: string;
  readonly send: string;
  readonly emailSent: string;
  /** How many of this device's seats the account keeps now. */
  readonly kept: (n: number) => string;
  // the account page, signed in
  readonly created: (ms: number) => string;
  readonly passkeys: string;
  readonly passkey: (p: PasskeyInfo) => string;
  readonly addPasskey: string;
  readonly passkeyAdded: string;
  readonly remove: string;
  readonly devices: string;
  readonly device: (s: SessionInfo) => string;
  readonly signOutDevice: string;
  readonly signOutOthers: string;
  readonly signOutOthersWarning: string;
  readonly signOutOthersConfirm: string;
  readonly signedOutOthers: (n: number) => string;
  readonly cancel: string;
  readonly signOut: string;
  readonly emailTitle: string;
  readonly emailExplain: string;
  readonly emailConfirmed: string;
  readonly emailUnconfirmed: string;
  readonly save: string;
  readonly emailSaved: string;
  readonly download: string;
  readonly deleteTitle: string;
  readonly deleteExplain: string;
  readonly deleteType: string;
  readonly deleteButton: string;
  // the pages of the mailed links
  readonly linkSignInTitle: string;
  readonly linkSignInExplain: string;
  readonly linkConfirmTitle: string;
  readonly linkConfirmExplain: string;
  readonly confirm: string;
  readonly confirmed: string;
};

const texts = textsOnDemand<AccountText>({
  en: () => import("./account/en").then((m) => m.text),
  "zh-Hant": () => import("./account/zhHant").then((m) => m.text),
  ja: () => import("./account/ja").then((m) => m.text),
});

export const loadAccount = texts.load;
export const accountIn = texts.in;
