// Accounts in the page (proto/PROTOCOL.md, *Accounts*): an upgrade, never a gate — every anonymous way
// to play stays as it is. The landing page's entry (create an account with a passkey, sign in; signed
// in, the username and the account's rooms in the room list), the room's "Keep your games" at the end
// of a game, the account page (`/#/account`: register and sign in, or the account's passkeys, devices,
// email, data and deletion) and the mailed links' pages (`/#/account/sign-in/{secret}`,
// `/#/account/confirm/{secret}`). All of it, and its texts (i18n/account.ts), loads on demand
// (ui/AccountSlot.tsx): the first render of a page pays nothing for it.
import { signal } from "@preact/signals";
import { useEffect, useRef, useState } from "preact/hooks";
import { errorMessage, lang, t } from "../../i18n";
import { type AccountText, accountIn, loadAccount } from "../../i18n/account";
import { AccountApi, AccountError } from "../../net/account";
import { type AccountDetails, MAX_USERNAME_CHARS, MIN_USERNAME_CHARS, type SessionState } from "../../net/protocol";
import { accountListTitle, accountRooms } from "../../state/rooms";
import { navigate, route } from "../router";
import { tokens } from "../services";
import { LanguagePicker } from "../widgets";
import { addPasskey, type KeptCount, keepDeviceSeats, register, signIn, takeAccountSeat } from "./flows";
import { type Authenticator, browserAuthenticator, hasPasskeys } from "./webauthn";

const api = new AccountApi();
let auth: Authenticator = browserAuthenticator;
/** A test's own authenticator instead of the browser's. */
export function setAuthenticator(a: Authenticator): void {
  auth = a;
}

/** `GET /api/session` as last answered (`undefined`: not asked yet; `null`: no answer). */
const session = signal<SessionState | null | undefined>(undefined);
let asking: Promise<void> | null = null;
function askSession(): Promise<void> {
  asking ??= api.session().then(
    (s) => {
      session.value = s;
    },
    () => {
      session.value = null;
    },
  );
  return asking;
}
/** What the last sign-in did with this device's seats, or why this device is signed out now: shown
 *  on the account page. */
const keptNote = signal<string | null>(null);
/** Forgets the answer: the next screen asks again. */
export function askAgain(): void {
  asking = null;
  session.value = undefined;
}
const signedIn = (username: string | null) => {
  const s = session.value;
  if (s) session.value = { ...s, account: username === null ? null : { username } };
};

/** A failure's text: the account routes' own codes, the others', a passkey request cancelled. */
function failure(text: AccountText, err: unknown): string {
  if (err instanceof AccountError) {
    const own: Record<string, string> = text.errors;
    return Object.hasOwn(own, err.code) ? own[err.code]! : errorMessage(err.code, err.message);
  }
  if (err instanceof DOMException && (err.name === "NotAllowedError" || err.name === "AbortError")) {
    return text.cancelled;
  }
  return String(err);
}

/** Runs a step of a screen: busy meanwhile, its failure shown. */
function useStep(text: AccountText | null) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async (step: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await step();
    } catch (err) {
      setError(text ? failure(text, err) : String(err));
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, run, setError };
}

function Failure({ error }: { error: string | null }) {
  return error ? (
    <p class="error" role="alert">
      {error}
    </p>
  ) : null;
}

/** The same page on the host passkeys work on (the relying party), when this page is on another. */
function elsewhere(s: SessionState): string | null {
  if (!s.passkey_rp_id || location.hostname === s.passkey_rp_id) return null;
  return `${location.protocol}//${s.passkey_rp_id}${location.port ? `:${location.port}` : ""}${location.pathname}${location.hash}`;
}

export function Slot({ at, sub = "" }: { at: "landing" | "room" | "page"; sub?: string }) {
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
        <p class="row">
          <a class="button" href="/#/account">
            {text.yourAccount}
          </a>
        </p>
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
        <SignedIn text={text} mail={s.email_sign_in} />
      ) : (
        <SignedOut text={text} s={s} />
      )}
    </>
  );
}

function SignedOut({ text, s }: { text: AccountText; s: SessionState }) {
  const [username, setUsername] = useState("");
  const make = useStep(text);
  const enter = useStep(text);
  // passkey autofill: a `get` the browser answers from the username field's suggestions, aborted
  // before any modal request (a page may have one request open at a time)
  const autofill = useRef<AbortController | null>(null);
  const stopAutofill = () => {
    autofill.current?.abort();
    autofill.current = null;
  };
  const done = (r: { username: string; kept: KeptCount }) => {
    // (a device without seats has nothing to say)
    keptNote.value = r.kept.kept + r.kept.other > 0 ? text.kept(r.kept.kept) : null;
    signedIn(r.username);
  };
  useEffect(() => {
    let live = true;
    void auth.autofill().then((yes) => {
      if (!yes || !live) return;
      const controller = new AbortController();
      autofill.current = controller;
      signIn(api, auth, tokens, controller.signal).then(done, (err: unknown) => {
        if (!controller.signal.aborted) enter.setError(failure(text, err));
      });
    });
    return () => {
      live = false;
      stopAutofill();
    };
  }, []);
  const chars = [...username.trim()].length;
  const fits = chars >= MIN_USERNAME_CHARS && chars <= MAX_USERNAME_CHARS;
  const create = (e: Event) => {
    e.preventDefault();
    if (!fits) {
      make.setError(text.errors.bad_username);
      return;
    }
    stopAutofill();
    void make.run(async () => done(await register(api, auth, tokens, username.trim())));
  };
  const modal = () => {
    stopAutofill();
    void enter.run(async () => done(await signIn(api, auth, tokens)));
  };
  return (
    <>
      {keptNote.value && <p role="status">{keptNote.value}</p>}
      <p>{text.explain}</p>
      {!hasPasskeys() && <p class="notice">{text.noPasskeys}</p>}
      <form class="panel" onSubmit={create} aria-labelledby="register-h">
        <h2 id="register-h">{text.createTitle}</h2>
        <p>
          <label for="account-username">{text.username}</label>
          <input
            id="account-username"
            name="username"
            value={username}
            maxLength={MAX_USERNAME_CHARS * 2}
            autoComplete="username"
            autoCapitalize="off"
            spellcheck={false}
            aria-describedby="account-username-hint"
            onInput={(e) => setUsername((e.currentTarget as HTMLInputElement).value)}
          />
          <span id="account-username-hint" class="small muted">
            {text.usernameHint}
          </span>
        </p>
        <button type="submit" class="primary" disabled={make.busy || !hasPasskeys()}>
          {make.busy ? text.waiting : text.create}
        </button>
        <Failure error={make.error} />
      </form>
      <section class="panel" aria-labelledby="sign-in-h">
        <h2 id="sign-in-h">{text.signInTitle}</h2>
        {/* the browser's passkey autofill offers this site's passkeys in this field */}
        <p>
          <label for="account-sign-in-name">{text.username}</label>
          <input
            id="account-sign-in-name"
            name="username"
            autoComplete="username webauthn"
            autoCapitalize="off"
            spellcheck={false}
          />
        </p>
        <button type="button" disabled={enter.busy || !hasPasskeys()} onClick={modal}>
          {enter.busy ? text.waiting : text.signInPasskey}
        </button>
        <Failure error={enter.error} />
        {s.email_sign_in && <EmailLink text={text} />}
      </section>
    </>
  );
}

function EmailLink({ text }: { text: AccountText }) {
  const [email, setEmail] = useState("");
  const [sent, setSent] = useState(false);
  const step = useStep(text);
  const send = (e: Event) => {
    e.preventDefault();
    void step.run(async () => {
      await api.emailSignIn(email.trim(), lang.value);
      setSent(true);
    });
  };
  return (
    <form onSubmit={send}>
      <h3>{text.emailLink}</h3>
      <p class="row">
        <label class="sr-only" for="account-link-email">
          {text.email}
        </label>
        <input
          id="account-link-email"
          type="email"
          autoComplete="email"
          placeholder={text.email}
          value={email}
          onInput={(e) => setEmail((e.currentTarget as HTMLInputElement).value)}
        />
        <button type="submit" disabled={step.busy || !email.trim()}>
          {text.send}
        </button>
      </p>
      {sent && <p role="status">{text.emailSent}</p>}
      <Failure error={step.error} />
    </form>
  );
}

/** The page a mailed link opens: one button posts its secret (never by itself: mail scanners open
 *  links); once used, the secret leaves the address bar. */
export function LinkPage({ text, kind, secret }: { text: AccountText; kind: "sign-in" | "confirm"; secret: string }) {
  const [done, setDone] = useState<string | null>(null);
  const step = useStep(text);
  const go = () =>
    step.run(async () => {
      try {
        if (kind === "sign-in") {
          const r = await api.linkSignIn(secret);
          signedIn(r.username);
          const kept = await keepDeviceSeats(api, tokens).catch(() => null);
          keptNote.value = kept && kept.kept + kept.other > 0 ? text.kept(kept.kept) : null;
          setDone(text.signedInAs(r.username));
        } else {
          await api.confirmEmail(secret);
          setDone(text.confirmed);
        }
      } finally {
        // used (or refused): the secret leaves the address bar and the history
        history.replaceState(null, "", "/#/account");
      }
    });
  return (
    <section class="panel" aria-labelledby="link-h">
      <h1 id="link-h">{kind === "sign-in" ? text.linkSignInTitle : text.linkConfirmTitle}</h1>
      {done ? (
        <>
          <p role="status">{done}</p>
          <p>
            <button type="button" onClick={() => navigate("/#/account", true)}>
              {text.yourAccount}
            </button>
          </p>
        </>
      ) : (
        <>
          <p>{kind === "sign-in" ? text.linkSignInExplain : text.linkConfirmExplain}</p>
          <button type="button" class="primary" disabled={step.busy} onClick={() => void go()}>
            {kind === "sign-in" ? text.signIn : text.confirm}
          </button>
        </>
      )}
      <Failure error={step.error} />
    </section>
  );
}

function SignedIn({ text, mail }: { text: AccountText; mail: boolean }) {
  const [account, setAccount] = useState<AccountDetails | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [asking, setAsking] = useState(false);
  const step = useStep(text);
  const load = () => api.details().then(setAccount);
  useEffect(() => {
    void step.run(() =>
      load().catch((err: unknown) => {
        // signed out from another device (or the session ended): this page offers signing in again
        if (err instanceof AccountError && err.code === "not_signed_in") {
          keptNote.value = text.errors.not_signed_in;
          signedIn(null);
        }
        throw err;
      }),
    );
  }, []);
  /** A change, then the account as it is now. */
  const change = (what: () => Promise<string | null>) =>
    step.run(async () => {
      setNote(null);
      const said = await what();
      await load();
      setNote(said);
    });
  const out = () =>
    step.run(async () => {
      await api.signOut();
      signedIn(null);
      navigate("/");
    });
  if (!account) return <Failure error={step.error} />;
  return (
    <>
      <p>
        <strong>{account.username}</strong> · <span class="muted">{text.created(account.created_at_ms)}</span>
      </p>
      {(note ?? keptNote.value) && <p role="status">{note ?? keptNote.value}</p>}
      <Failure error={step.error} />
      <section class="panel" aria-labelledby="passkeys-h">
        <h2 id="passkeys-h">{text.passkeys}</h2>
        <ul>
          {account.passkeys.map((p) => (
            <li key={p.id}>
              {text.passkey(p)}{" "}
              <button
                type="button"
                class="link"
                disabled={step.busy}
                onClick={() => void change(() => api.removePasskey(p.id).then(() => null))}
              >
                {text.remove}
              </button>
            </li>
          ))}
        </ul>
        <button
          type="button"
          disabled={step.busy || !hasPasskeys()}
          onClick={() => void change(() => addPasskey(api, auth).then(() => text.passkeyAdded))}
        >
          {text.addPasskey}
        </button>
      </section>
      <section class="panel" aria-labelledby="devices-h">
        <h2 id="devices-h">{text.devices}</h2>
        <ul>
          {account.sessions.map((d) => (
            <li key={d.id}>
              {text.device(d)}{" "}
              {!d.current && (
                <button
                  type="button"
                  class="link"
                  disabled={step.busy}
                  onClick={() => void change(() => api.endSession(d.id).then(() => null))}
                >
                  {text.signOutDevice}
                </button>
              )}
            </li>
          ))}
        </ul>
        {account.sessions.length > 1 &&
          (asking ? (
            <>
              <p class="small">{text.signOutOthersWarning}</p>
              <p class="row">
                <button
                  type="button"
                  class="sign-out"
                  disabled={step.busy}
                  onClick={() => {
                    setAsking(false);
                    void change(() => api.signOutOthers().then((r) => text.signedOutOthers(r.signed_out)));
                  }}
                >
                  {text.signOutOthersConfirm}
                </button>
                <button type="button" onClick={() => setAsking(false)}>
                  {text.cancel}
                </button>
              </p>
            </>
          ) : (
            <p>
              <button type="button" onClick={() => setAsking(true)}>
                {text.signOutOthers}
              </button>
            </p>
          ))}
        <p>
          <button type="button" disabled={step.busy} onClick={() => void out()}>
            {text.signOut}
          </button>
        </p>
      </section>
      {/* a server that sends no mail has no sign-in links */}
      {mail && <AccountEmail text={text} account={account} onSaved={() => void change(async () => text.emailSaved)} />}
      <section class="panel" aria-labelledby="data-h">
        <h2 id="data-h">{text.download}</h2>
        <button type="button" disabled={step.busy} onClick={() => void step.run(() => download(account.username))}>
          {text.download}
        </button>
      </section>
      <DeleteAccount text={text} username={account.username} />
    </>
  );
}

/** Saves the account's data as a JSON file, as the replay file is saved (ReplayPanel.tsx). */
async function download(username: string): Promise<void> {
  const data = await api.exportData();
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: "application/json" }));
  a.download = `evr-account-${username}.json`;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 1e4);
}

function AccountEmail({ text, account, onSaved }: { text: AccountText; account: AccountDetails; onSaved: () => void }) {
  const [email, setEmail] = useState("");
  const step = useStep(text);
  const save = (e: Event) => {
    e.preventDefault();
    void step.run(async () => {
      await api.setEmail(email.trim(), lang.value);
      setEmail("");
      onSaved();
    });
  };
  return (
    <form class="panel" onSubmit={save} aria-labelledby="email-h">
      <h2 id="email-h">{text.emailTitle}</h2>
      <p class="small muted">{text.emailExplain}</p>
      {account.email && (
        <p>
          {account.email} ({account.email_confirmed ? text.emailConfirmed : text.emailUnconfirmed})
        </p>
      )}
      <p class="row">
        <label class="sr-only" for="account-email">
          {text.email}
        </label>
        <input
          id="account-email"
          type="email"
          autoComplete="email"
          placeholder={text.email}
          value={email}
          onInput={(e) => setEmail((e.currentTarget as HTMLInputElement).value)}
        />
        <button type="submit" disabled={step.busy || !email.trim()}>
          {text.save}
        </button>
      </p>
      <Failure error={step.error} />
    </form>
  );
}

/** Deleting: the username typed again; a wrong one is refused here, before any request. */
export function DeleteAccount({ text, username }: { text: AccountText; username: string }) {
  const [typed, setTyped] = useState("");
  const step = useStep(text);
  const remove = (e: Event) => {
    e.preventDefault();
    if (typed.trim() !== username) {
      step.setError(text.errors.confirmation_mismatch);
      return;
    }
    void step.run(async () => {
      await api.deleteAccount(typed.trim());
      signedIn(null);
      navigate("/");
    });
  };
  return (
    <form class="panel delete-account" onSubmit={remove} aria-labelledby="delete-h">
      <h2 id="delete-h">{text.deleteTitle}</h2>
      <p class="small">{text.deleteExplain}</p>
      <p>
        <label for="account-delete">{text.deleteType}</label>
        <input
          id="account-delete"
          value={typed}
          autoComplete="off"
          autoCapitalize="off"
          spellcheck={false}
          onInput={(e) => setTyped((e.currentTarget as HTMLInputElement).value)}
        />
      </p>
      <button type="submit" class="sign-out" disabled={step.busy}>
        {text.deleteButton}
      </button>
      <Failure error={step.error} />
    </form>
  );
}
