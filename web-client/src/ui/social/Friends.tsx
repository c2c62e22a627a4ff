// The friends page `/#/friends` (signed in): the open challenges (Challenges.tsx), the friends with
// their presence (online, at a table), each with a challenge form, the head-to-head record, removal
// and blocking; requests received (accept, decline) and sent (withdraw); adding by username; the
// accounts blocked. Removing, blocking and unblocking ask first.
import { useEffect, useRef, useState } from "preact/hooks";
import type { AccountText } from "../../i18n/account";
import type { SocialText } from "../../i18n/social";
import type { FriendList } from "../../net/protocol";
import { api, Failure, useStep } from "../account/shared";
import { ChallengeForm } from "./ChallengeForm";
import { ChallengesSection } from "./Challenges";
import { challengeList, friendsNews } from "./challenges";
import { HeadToHeadPanel } from "./HeadToHead";
import { playerPage } from "./pages";

type FriendAction = "accept" | "decline" | "remove" | "block" | "unblock";
type Asking = { action: FriendAction; username: string; question: string } | null;

export function FriendsPage(props: { text: SocialText; account: AccountText; username: string | null }) {
  const { text, account } = props;
  if (!props.username) {
    return (
      <>
        <h1>{text.friends}</h1>
        <p>{text.signInFirst}</p>
        <p>
          <a class="button primary" href="/#/account">
            {account.signIn}
          </a>
        </p>
      </>
    );
  }
  return (
    <>
      <h1>{text.friends}</h1>
      <ChallengesSection text={text} account={account} />
      <FriendsSection text={text} account={account} />
    </>
  );
}

function FriendsSection({ text, account }: { text: SocialText; account: AccountText }) {
  const [list, setList] = useState<FriendList | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [asking, setAsking] = useState<Asking>(null);
  const [open, setOpen] = useState<{ username: string; what: "challenge" | "record" } | null>(null);
  const [name, setName] = useState("");
  const step = useStep(account);
  const load = () => api.friends().then(setList);
  useEffect(() => {
    void step.run(load);
  }, []);
  // kept fresh: at once when the account's event stream says a request came or one was accepted
  // (ui/social/challenges.ts), and with the challenges' slow poll (presence)
  const polled = challengeList.value;
  const news = friendsNews.value;
  const seen = useRef({ polled, news });
  useEffect(() => {
    // (not when the page opens: it has just asked)
    if (seen.current.polled === polled && seen.current.news === news) return;
    seen.current = { polled, news };
    void load().catch(() => undefined);
  }, [polled, news]);
  const act = (action: FriendAction, username: string) =>
    step.run(async () => {
      setAsking(null);
      setNote(null);
      await api.friendAction(action, username);
      await load();
    });
  /** Removing, blocking and unblocking ask first; accepting and declining do not. */
  const ask = (action: FriendAction, username: string, question: string) => {
    setNote(null);
    setAsking({ action, username, question });
  };
  const add = (e: Event) => {
    e.preventDefault();
    const username = name.trim();
    if (!username) return;
    void step.run(async () => {
      setNote(null);
      const added = await api.addFriend({ username });
      setName("");
      setNote(added.status === "friends" ? text.nowFriends(added.username) : text.requestSent(added.username));
      await load();
    });
  };
  const toggle = (username: string, what: "challenge" | "record") =>
    setOpen(open?.username === username && open.what === what ? null : { username, what });
  return (
    <>
      <section class="panel" aria-labelledby="friends-h">
        <h2 id="friends-h">{text.friends}</h2>
        {note && <p role="status">{note}</p>}
        <Failure error={step.error} />
        {asking && (
          <div class="confirm" role="alertdialog" aria-labelledby="confirm-q">
            <p id="confirm-q">
              <bdi>{asking.question}</bdi>
            </p>
            <p class="row">
              <button type="button" class="danger" onClick={() => void act(asking.action, asking.username)}>
                {text.yes}
              </button>
              <button type="button" onClick={() => setAsking(null)}>
                {text.cancel}
              </button>
            </p>
          </div>
        )}
        {list && list.friends.length === 0 && <p class="muted">{text.noFriends}</p>}
        {list && list.friends.length > 0 && (
          <ul class="plain friend-list">
            {list.friends.map((f) => (
              <li key={f.username} class="friend">
                <p class="friend-head">
                  <a href={playerPage(f.username)}>
                    <bdi>{f.username}</bdi>
                  </a>{" "}
                  <span class={`presence ${f.at_table ? "at-table" : f.online ? "online" : "offline"}`}>
                    {f.at_table ? text.atTable : f.online ? text.online : text.offline}
                  </span>
                </p>
                <p class="row friend-actions">
                  <button
                    type="button"
                    aria-expanded={open?.username === f.username && open.what === "challenge"}
                    onClick={() => toggle(f.username, "challenge")}
                  >
                    {text.challenge}
                  </button>
                  <button
                    type="button"
                    aria-expanded={open?.username === f.username && open.what === "record"}
                    onClick={() => toggle(f.username, "record")}
                  >
                    {text.record}
                  </button>
                  <button type="button" onClick={() => ask("remove", f.username, text.removeConfirm(f.username))}>
                    {text.remove}
                  </button>
                  <button type="button" onClick={() => ask("block", f.username, text.blockConfirm(f.username))}>
                    {text.block}
                  </button>
                </p>
                {open?.username === f.username &&
                  (open.what === "challenge" ? (
                    <ChallengeForm
                      text={text}
                      account={account}
                      username={f.username}
                      onDone={() => setOpen(null)}
                      onCancel={() => setOpen(null)}
                    />
                  ) : (
                    <HeadToHeadPanel text={text} account={account} username={f.username} />
                  ))}
              </li>
            ))}
          </ul>
        )}
        <form class="row add-friend" onSubmit={add} aria-labelledby="add-friend-h">
          <h3 id="add-friend-h">{text.addTitle}</h3>
          <label>
            {account.username}{" "}
            <input
              name="friend_username"
              autocomplete="off"
              maxLength={20}
              value={name}
              onInput={(e) => setName((e.currentTarget as HTMLInputElement).value)}
            />
          </label>
          <button type="submit" disabled={step.busy || !name.trim()}>
            {text.add}
          </button>
        </form>
      </section>
      {list && list.incoming.length > 0 && (
        <section class="panel" aria-labelledby="incoming-h">
          <h2 id="incoming-h">{text.incomingRequests}</h2>
          <ul class="plain request-list">
            {list.incoming.map((o) => (
              <li key={o.username}>
                <bdi>{o.username}</bdi>{" "}
                <span class="row">
                  <button
                    type="button"
                    class="primary"
                    disabled={step.busy}
                    onClick={() => void act("accept", o.username)}
                  >
                    {text.accept}
                  </button>
                  <button type="button" disabled={step.busy} onClick={() => void act("decline", o.username)}>
                    {text.decline}
                  </button>
                  <button type="button" onClick={() => ask("block", o.username, text.blockConfirm(o.username))}>
                    {text.block}
                  </button>
                </span>
              </li>
            ))}
          </ul>
        </section>
      )}
      {list && list.outgoing.length > 0 && (
        <section class="panel" aria-labelledby="outgoing-h">
          <h2 id="outgoing-h">{text.outgoingRequests}</h2>
          <ul class="plain request-list">
            {list.outgoing.map((o) => (
              <li key={o.username}>
                <bdi>{o.username}</bdi>{" "}
                <button type="button" disabled={step.busy} onClick={() => void act("remove", o.username)}>
                  {text.withdraw}
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
      {list && list.blocked.length > 0 && (
        <section class="panel" aria-labelledby="blocked-h">
          <h2 id="blocked-h">{text.blocked}</h2>
          <ul class="plain request-list">
            {list.blocked.map((o) => (
              <li key={o.username}>
                <bdi>{o.username}</bdi>{" "}
                <button type="button" onClick={() => ask("unblock", o.username, text.unblockConfirm(o.username))}>
                  {text.unblock}
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
    </>
  );
}
