// New challenges at once on every page (issue 30): signed in, the page hears of its challenges from the
// account's event stream (ui/social/challenges.ts) and shows a notice over any page but the
// friends page, which lists them. "Later" puts off the ones shown; a new one shows again. It has its
// own element at the end of the body: the page's own script (ui/AccountSlot.tsx) only loads this part.
import { render } from "preact";
import { useEffect } from "preact/hooks";
import { lang } from "../../i18n";
import { accountIn } from "../../i18n/account";
import { loadSocial, type SocialText, socialIn } from "../../i18n/social";
import { askSession, Failure, session, useStep } from "../account/shared";
import { route } from "../router";
import { acceptedRoom, challengeList, followChallenges, playAccepted, putOff } from "./challenges";

/** Mounts the notice (once). */
export function showNotices(): void {
  if (document.getElementById("challenge-notice")) return;
  const at = document.createElement("div");
  at.id = "challenge-notice";
  document.body.append(at);
  render(<Notice />, at);
}

function Notice() {
  void askSession();
  const username = session.value?.account?.username ?? null;
  useEffect(() => {
    followChallenges(username);
    return () => followChallenges(null);
  }, [username]);
  const fresh = (challengeList.value?.incoming ?? []).filter((c) => !putOff.value.has(c.id));
  const r = route.value;
  const accepted = acceptedRoom.value;
  const onFriendsPage = r.page === "social" && r.sub === "friends";
  if (!accepted && (fresh.length === 0 || onFriendsPage)) return null;
  const text = socialIn(lang.value);
  if (!text) {
    void loadSocial(lang.value).catch(() => {});
    return null;
  }
  // at a table the notice sits below the room's bar, over the table's top corner; elsewhere the page's
  // own header is at the top (its title, the language picker), so the notice keeps to the bottom
  const place =
    r.page === "room" || r.page === "watch" || r.page === "replay" ? "challenge-notice" : "challenge-notice below";
  if (accepted) return <Accepted text={text} code={accepted.code} by={accepted.by} place={place} />;
  return (
    <aside class={place} aria-label={text.challenges}>
      <p role="status">
        {fresh.length === 1 ? text.incomingChallenge(fresh[0]!.from) : text.newChallenges(fresh.length)}
      </p>
      <a class="button primary" href="/#/friends">
        {text.see}
      </a>
      <button
        type="button"
        onClick={() => {
          putOff.value = new Set([...putOff.value, ...fresh.map((c) => c.id)]);
        }}
      >
        {text.dismiss}
      </button>
    </aside>
  );
}

/** A challenge this account sent was accepted: its room, one press away. */
function Accepted({ text, code, by, place }: { text: SocialText; code: string; by: string; place: string }) {
  const step = useStep(accountIn(lang.value));
  return (
    <aside class={place} aria-label={text.challenges}>
      <p role="status">
        <bdi>{text.acceptedBy(by)}</bdi>
      </p>
      <button
        type="button"
        class="primary"
        disabled={step.busy}
        onClick={() => void step.run(() => playAccepted(code))}
      >
        {text.play}
      </button>
      <button
        type="button"
        onClick={() => {
          acceptedRoom.value = null;
        }}
      >
        {text.dismiss}
      </button>
      <Failure error={step.error} />
    </aside>
  );
}
