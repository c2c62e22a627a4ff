// The account page signed in (proto/PROTOCOL.md, *Accounts*): the account's passkeys and signed-in
// devices here; its email address (Email.tsx), its data and its deletion (Data.tsx).
import { useEffect, useState } from "preact/hooks";
import type { AccountText } from "../../i18n/account";
import { AccountError } from "../../net/account";
import type { AccountDetails } from "../../net/protocol";
import { navigate } from "../router";
import { DeleteAccount, download } from "./Data";
import { AccountEmail } from "./Email";
import { addPasskey } from "./flows";
import { api, authenticator, Failure, keptNote, signedIn, useStep } from "./shared";
import { hasPasskeys } from "./webauthn";

export function SignedIn({ text, mail }: { text: AccountText; mail: boolean }) {
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
          onClick={() => void change(() => addPasskey(api, authenticator()).then(() => text.passkeyAdded))}
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
