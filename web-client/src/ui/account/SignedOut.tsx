// The account page signed out (proto/PROTOCOL.md, *Accounts*): create an account with a passkey, or
// sign in — with a passkey (the button, or the browser's passkey autofill) or by an email link.
import { useEffect, useRef, useState } from "preact/hooks";
import type { AccountText } from "../../i18n/account";
import { MAX_USERNAME_CHARS, MIN_USERNAME_CHARS, type SessionState } from "../../net/protocol";
import { tokens } from "../services";
import { EmailLink } from "./Email";
import { type KeptCount, register, signIn } from "./flows";
import { api, authenticator, Failure, failure, keptNote, signedIn, useStep } from "./shared";
import { hasPasskeys } from "./webauthn";

export function SignedOut({ text, s }: { text: AccountText; s: SessionState }) {
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
    void authenticator()
      .autofill()
      .then((yes) => {
        if (!yes || !live) return;
        const controller = new AbortController();
        autofill.current = controller;
        signIn(api, authenticator(), tokens, controller.signal).then(done, (err: unknown) => {
          // the autofill's own request ending unanswered (no passkey of this site here: some
          // authenticators refuse at once) is nothing the player asked for or cancelled: no word
          if (controller.signal.aborted || (err instanceof DOMException && err.name === "NotAllowedError")) return;
          enter.setError(failure(text, err));
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
    void make.run(async () => done(await register(api, authenticator(), tokens, username.trim())));
  };
  const modal = () => {
    stopAutofill();
    void enter.run(async () => done(await signIn(api, authenticator(), tokens)));
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
