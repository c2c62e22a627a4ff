// Accounts in the page (proto/PROTOCOL.md, *Accounts*): an upgrade, never a gate — every anonymous way
// to play stays as it is. The landing page's entry (create an account with a passkey, sign in; signed
// in, the username and the account's rooms in the room list), the room's "Keep your games" at the end
// of a game, the account page (`/#/account`: register and sign in, SignedOut.tsx, or the account's
// passkeys, devices, email, data and deletion, SignedIn.tsx) and the mailed links' pages
// (`/#/account/sign-in/{secret}`, `/#/account/confirm/{secret}`, LinkPage.tsx). All of it, and its
// texts (i18n/account.ts), loads on demand (ui/AccountSlot.tsx): the first render of a page pays
// nothing for it.
import { useEffect } from "preact/hooks";
import { lang, t } from "../../i18n";
import { type AccountText, accountIn, loadAccount } from "../../i18n/account";
import type { SessionState } from "../../net/protocol";
import { accountListTitle, accountRooms } from "../../state/rooms";
import type { SlotProps } from "../AccountSlot";
import { navigate, route } from "../router";
import { tokens } from "../services";
import { showNotices } from "../social/Notice";
import { Slot as SocialSlot } from "../social/Social";

import { LanguagePicker } from "../widgets";
import { keepDeviceSeats, takeAccountSeat } from "./flows";
import { LinkPage } from "./LinkPage";
import { SignedIn } from "./SignedIn";
import { SignedOut } from "./SignedOut";
import { api, askSession, elsewhere, failure, keptNote, session } from "./shared";

// new challenges on every page (not in the unit tests, which render their own parts)
if (import.meta.env.MODE !== "test") showNotices();

export function Slot(props: SlotProps) {
  // friends, challenges and ratings (ui/social/) load with this file (ui/AccountSlot.tsx says why)
  if (props.at === "room") {
    return (
      <>
        {props.seated && <AccountSlot at="room" />}
        <SocialSlot at="gameover" room={props.room} seated={props.seated} />
      </>
    );
  }
  return accountsOwn(props) ? <AccountSlot {...props} /> : <SocialSlot {...props} />;
}

type OwnSlot = Extract<SlotProps, { at: "landing" | "page" }>;
const accountsOwn = (p: SlotProps): p is OwnSlot => p.at === "landing" || p.at === "page";

function AccountSlot({ at, sub = "" }: { at: "landing" | "room" | "page"; sub?: string }) {
  const text = accountIn(lang.value);
  if (!text) void loadAccount(lang.value).catch(() => {});
  void askSession();
  const s = session.value;
  if (at === "page") {
    const link = /^\/(sign-in|confirm)\/([^/]+)$/.exec(sub);
    return (
      <main class="page narrow account-page">
        <div class="topline">
          <LanguagePicker />
        </div>
        {!text || s === undefined ? (
          <p aria-live="polite">{t("rooms.loading")}</p>
        ) : link ? (
          <LinkPage text={text} kind={link[1] as "sign-in" | "confirm"} secret={link[2]!} />
        ) : (
          <AccountPage text={text} s={s} />
        )}
        <p>
          <a href="/">{t("common.back")}</a>
        </p>
      </main>
    );
  }
  if (!text || !s?.passkey_rp_id) return null;
  if (at === "room") return <KeepThisRoom text={text} s={s} />;
  return <Entry text={text} s={s} />;
}

/** The landing page's entry: an offer, or who is signed in (and the account's rooms in the list). */
function Entry({ text, s }: { text: AccountText; s: SessionState }) {
  const there = elsewhere(s);
  const username = s.account?.username ?? null;
  useEffect(() => {
    if (username) {
      accountListTitle.value = text.listTitle;
      void listAccountRooms(text);
    }
    return () => {
      accountRooms.value = [];
      accountListTitle.value = null;
    };
  }, [username]);
  return (
    <section class="panel account-entry" aria-labelledby="account-h">
      <h2 id="account-h">{username ? text.signedInAs(username) : text.keep}</h2>
      {there ? (
        <p class="small">
          {text.otherHost(s.passkey_rp_id!)} <a href={there}>{text.openThere}</a>
        </p>
      ) : username ? (
        <>
          <p class="row">
            <a class="button" href="/#/account">
              {text.yourAccount}
            </a>
          </p>
          <SocialSlot at="social-entry" />
        </>
      ) : (
        <p class="row">
          <a class="button primary" href="/#/account">
            {text.keepOffer}
          </a>
          <a class="button" href="/#/account">
            {text.signIn}
          </a>
        </p>
      )}
    </section>
  );
}

/** At the end of a game: "Keep your games" when not signed in; signed in, this room's seat is kept. */
function KeepThisRoom({ text, s }: { text: AccountText; s: SessionState }) {
  const r = route.value;
  const code = r.page === "room" ? r.code : null;
  const username = s.account?.username ?? null;
  useEffect(() => {
    if (username && code) void keepDeviceSeats(api, tokens, [code]).catch(() => {});
  }, [username, code]);
  if (username || elsewhere(s)) return null;
  return (
    <a class="button" href="/#/account">
      {text.keep}
    </a>
  );
}

/** How many of the account's rooms the landing page asks about (as many as its own list shows). */
const LISTED = 12;

/** The account's rooms this device does not hold, with their summaries, into the landing page's list
 *  (state/rooms.ts); this device's seats the account does not keep yet are kept first. */
export async function listAccountRooms(text: AccountText): Promise<void> {
  const { rooms } = await api.rooms();
  const known = new Set(rooms.map((r) => r.code));
  if (tokens.rooms().some((r) => !known.has(r.code))) {
    await keepDeviceSeats(
      api,
      tokens,
      tokens
        .rooms()
        .map((r) => r.code)
        .filter((c) => !known.has(c)),
    ).catch(() => undefined);
  }
  const missing = rooms.filter((r) => !tokens.getToken(r.code)).slice(0, LISTED);
  const update = (code: string, change: Partial<(typeof accountRooms.value)[number]>) => {
    accountRooms.value = accountRooms.value.map((r) => (r.code === code ? { ...r, ...change } : r));
  };
  const open = (code: string) => (e: Event) => {
    e.preventDefault();
    takeAccountSeat(api, tokens, code).then(
      () => {
        accountRooms.value = accountRooms.value.filter((r) => r.code !== code);
        navigate(`/r/${code}`);
      },
      (err: unknown) => update(code, { error: failure(text, err), summary: null }),
    );
  };
  accountRooms.value = missing.map((r) => ({ code: r.code, summary: null, at: 0, error: null, open: open(r.code) }));
  await Promise.all(
    missing.map((r) =>
      api.seat(r.code).then(
        (summary) => update(r.code, { summary, at: Date.now() }),
        (err: unknown) => update(r.code, { error: failure(text, err) }),
      ),
    ),
  );
}

/** The account page: register or sign in; signed in, the account. */
function AccountPage({ text, s }: { text: AccountText | null; s: SessionState | null }) {
  // the page's notes are for this visit
  useEffect(
    () => () => {
      keptNote.value = null;
    },
    [],
  );
  if (!text) return null;
  if (!s?.passkey_rp_id) {
    return <p>{text.errors.accounts_disabled}</p>;
  }
  const there = elsewhere(s);
  return (
    <>
      <h1>{text.title}</h1>
      {there ? (
        <p>
          {text.otherHost(s.passkey_rp_id)} <a href={there}>{text.openThere}</a>
        </p>
      ) : s.account ? (
        <>
          <SocialSlot at="social-entry" />
          <SignedIn text={text} mail={s.email_sign_in} />
        </>
      ) : (
        <SignedOut text={text} s={s} />
      )}
    </>
  );
}
