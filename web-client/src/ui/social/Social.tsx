// Friends, challenges and ratings in the page (issue 30; proto/PROTOCOL.md, *Friends and challenges*
// and *Ratings*): the notice of new challenges on every page (signed in), the landing page's and the
// account page's entry, and the pages `/#/friends` (Friends.tsx), `/#/players/{username}` and
// `/#/leaderboard` (Ratings.tsx). All of it, and its texts (i18n/social.ts), loads on demand
// (ui/SocialSlot.tsx). Errors are shown by their code with the account pack's texts.

import { useState } from "preact/hooks";
import { lang, t } from "../../i18n";
import { type AccountText, accountIn, loadAccount } from "../../i18n/account";
import { loadSocial, type SocialText, socialIn } from "../../i18n/social";
import type { RoomInfo } from "../../net/protocol";
import type { SlotProps } from "../AccountSlot";
import { api, askSession, Failure, session, useStep } from "../account/shared";
import { LanguagePicker } from "../widgets";
import { challengeList } from "./challenges";
import { FriendsPage } from "./Friends";
import { socialPage } from "./pages";
import { LeaderboardPage, PlayerPage, RatingChanges } from "./Ratings";
import socialSheet from "./social.css?url";

export type SocialSlotProps =
  | Exclude<SlotProps, { at: "landing" | "room" | "page" }>
  | { at: "gameover"; room: RoomInfo; seated: boolean };

// The part's style sheet, linked by this file rather than imported: an imported sheet made the page's
// own script carry the bundler's preloading code for it (~80 bytes of the budget, scripts/budget.mjs).
if (!document.querySelector(`link[href="${socialSheet}"]`)) {
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = socialSheet;
  document.head.append(link);
}

const shown: { social: SocialText | null; account: AccountText | null } = { social: null, account: null };

export function Slot(props: SocialSlotProps) {
  // while another language's texts load, the last ones stay: the page is not unmounted (an open
  // challenge form would close)
  const social = socialIn(lang.value) ?? shown.social;
  const account = accountIn(lang.value) ?? shown.account;
  if (!socialIn(lang.value)) void loadSocial(lang.value).catch(() => {});
  if (!accountIn(lang.value)) void loadAccount(lang.value).catch(() => {});
  shown.social = social;
  shown.account = account;
  void askSession();
  const s = session.value;
  const username = s?.account?.username ?? null;
  if (props.at === "gameover") {
    const { room } = props;
    return (
      <>
        <RatingChanges room={room} />
        {props.seated && username && social && account && !room.options.opponent && (
          <AddOpponent text={social} account={account} code={room.code} />
        )}
      </>
    );
  }
  if (props.at === "rated") return social && <span class="badge">{social.rated}</span>;
  if (props.at !== "social") return username && social ? <Entry text={social} /> : null;
  if (!social || !account || s === undefined) {
    return (
      <main class="page narrow social-page">
        <p aria-live="polite">{t("rooms.loading")}</p>
      </main>
    );
  }
  const r = socialPage(props.sub);
  return (
    <main class="page narrow social-page">
      <div class="topline">
        <LanguagePicker />
      </div>
      {r.page === "friends" ? (
        <FriendsPage text={social} account={account} username={username} />
      ) : r.page === "player" ? (
        <PlayerPage key={r.username} text={social} account={account} username={r.username} />
      ) : r.page === "leaderboard" ? (
        <LeaderboardPage text={social} account={account} />
      ) : (
        <h1>404</h1>
      )}
      <p class="row">
        <a href="/">{t("common.back")}</a>
        {r.page !== "leaderboard" && <a href="/#/leaderboard">{social.leaderboard}</a>}
      </p>
    </main>
  );
}

/** The landing page's (and account page's) way in, with how many challenges wait. */
function Entry({ text }: { text: SocialText }) {
  const waiting = challengeList.value?.incoming.length ?? 0;
  return (
    <p class="row social-entry">
      <a class="button" href="/#/friends">
        {text.friendsLink}
        {waiting > 0 && <span class="count-badge"> {waiting}</span>}
      </a>
      <a class="button" href="/#/leaderboard">
        {text.leaderboard}
      </a>
    </p>
  );
}

/** At the end of a game with another account: a friend request to the account keeping the other seat
 *  of this room (the server finds it; a refusal, e.g. a guest opponent, is shown by its code). */
function AddOpponent({ text, account, code }: { text: SocialText; account: AccountText; code: string }) {
  const [done, setDone] = useState<string | null>(null);
  const step = useStep(account);
  if (done) return <p role="status">{done}</p>;
  return (
    <>
      <button
        type="button"
        disabled={step.busy}
        onClick={() =>
          void step.run(async () => {
            const added = await api.addFriend({ room: code });
            setDone(added.status === "friends" ? text.nowFriends(added.username) : text.requestSent(added.username));
          })
        }
      >
        {text.addFromGame}
      </button>
      <Failure error={step.error} />
    </>
  );
}
