// The account's email forms (proto/PROTOCOL.md, *Accounts*): signed out, "Email me a sign-in link";
// signed in, the account's address for sign-in links (confirmed by the link mailed to it).
import { useState } from "preact/hooks";
import { lang } from "../../i18n";
import type { AccountText } from "../../i18n/account";
import type { AccountDetails } from "../../net/protocol";
import { api, Failure, useStep } from "./shared";

export function EmailLink({ text }: { text: AccountText }) {
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

export function AccountEmail({
  text,
  account,
  onSaved,
}: {
  text: AccountText;
  account: AccountDetails;
  onSaved: () => void;
}) {
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
