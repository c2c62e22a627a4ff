// The pages the mailed links open (`/#/account/sign-in/{secret}`, `/#/account/confirm/{secret}`).
import { useState } from "preact/hooks";
import type { AccountText } from "../../i18n/account";
import { navigate } from "../router";
import { tokens } from "../services";
import { keepDeviceSeats } from "./flows";
import { api, Failure, keptNote, signedIn, useStep } from "./shared";

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
