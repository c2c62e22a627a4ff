// Email reminders for a seat of a room played over days (the mail API, proto/PROTOCOL.md): the
// player leaves an address (the one this device remembers is filled in, never sent before they press
// the button), the server mails a confirmation link first, and the page says where reminders go — a
// masked hint only, the server never gives the address back — and offers to stop them. A server that
// cannot send mail (`GET /api/mail`) gets none of this shown. A device signed in to an account with a
// confirmed address (`GET /api/account`) gets that address filled in instead: sent with the session
// cookie, it needs no confirmation mail (the server answers `already_confirmed`).
import { signal } from "@preact/signals";
import { useEffect, useId, useState } from "preact/hooks";
import { errorMessage, lang } from "../i18n";
import { loadReminders, remindersIn } from "../i18n/reminders";
import { ApiError } from "../net/http";
import type { ReminderSettings } from "../net/protocol";
import { prefs, setPref } from "../state/prefs";
import { api, tokens } from "./services";

/** Whether this server sends reminders: asked once a page (null until it answered). */
const mailEnabled = signal<boolean | null>(null);
let askedMail = false;

function useMailEnabled(): boolean {
  useEffect(() => {
    if (askedMail) return;
    askedMail = true;
    api.mailStatus().then(
      (s) => {
        mailEnabled.value = s.enabled === true;
      },
      () => {
        // a server without the mail API (or unreachable now) offers no reminders
        mailEnabled.value = false;
      },
    );
  }, []);
  return mailEnabled.value === true;
}

/** While a confirmation is awaited, the page asks again this often (and whenever it is shown again). */
const RECHECK_MS = 10_000;

export function Reminders({ code }: { code: string }) {
  const enabled = useMailEnabled();
  const token = tokens.getToken(code);
  const [status, setStatus] = useState<ReminderSettings | null>(null);
  const [email, setEmail] = useState(prefs.value.email);
  const [busy, setBusy] = useState(false);
  const [stopped, setStopped] = useState(false);
  const [error, setError] = useState<string | null>(null);
  /** The signed-in account's confirmed address (null: none, or not signed in). */
  const [own, setOwn] = useState<string | null>(null);
  const headingId = useId();
  const fieldId = useId();
  const failed = (err: unknown) =>
    setError(err instanceof ApiError ? errorMessage(err.code, err.message) : String(err));

  const refresh = () => {
    if (!token) return;
    api.reminders(code, token).then(setStatus, failed);
  };
  useEffect(() => {
    if (!enabled || !token) return;
    refresh();
    // not signed in (401), or a server without accounts: the device's own address stays
    api.account().then(
      (a) => {
        if (!a.email || !a.email_confirmed) return;
        setOwn(a.email);
        // (unless the player has typed another meanwhile)
        setEmail((typed) => (typed === prefs.value.email ? a.email! : typed));
      },
      () => {},
    );
  }, [enabled, code]);
  // an address waiting for its confirmation: the player confirms in their mail, elsewhere; the page
  // asks again when it is looked at again, and now and then while it is
  const pending = !!status?.email_hint && !status.confirmed;
  useEffect(() => {
    if (!pending) return;
    const again = () => document.visibilityState === "visible" && refresh();
    const id = setInterval(again, RECHECK_MS);
    document.addEventListener("visibilitychange", again);
    window.addEventListener("focus", again);
    return () => {
      clearInterval(id);
      document.removeEventListener("visibilitychange", again);
      window.removeEventListener("focus", again);
    };
  }, [pending, code]);

  if (!enabled || !token) return null;
  const text = remindersIn(lang.value);
  if (!text) {
    void loadReminders(lang.value).catch(() => {});
    return null;
  }

  const ownAddress = !!own && email.trim().toLowerCase() === own.toLowerCase();
  const send = async (e: Event) => {
    e.preventDefault();
    const address = email.trim();
    if (!address) return;
    setBusy(true);
    setError(null);
    setStopped(false);
    try {
      await api.setReminders(code, token, { email: address, language: lang.value });
      setPref("email", address);
      setStatus(await api.reminders(code, token));
    } catch (err) {
      failed(err);
    } finally {
      setBusy(false);
    }
  };
  const stop = async () => {
    setBusy(true);
    setError(null);
    try {
      await api.stopReminders(code, token);
      setStatus({ email_hint: null, confirmed: false });
      setStopped(true);
    } catch (err) {
      failed(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="panel reminders" aria-labelledby={headingId}>
      <h2 id={headingId}>{text.title}</h2>
      {status?.email_hint ? (
        <>
          <p class={`remind-state${status.confirmed ? " on" : " pending"}`} role="status">
            {text[status.confirmed ? "on" : "pending"](status.email_hint)}
          </p>
          <p>
            <button type="button" class="remind-stop" disabled={busy} onClick={() => void stop()}>
              {text.stop}
            </button>
          </p>
        </>
      ) : (
        <>
          {stopped && (
            <p class="remind-state off" role="status">
              {text.stopped}
            </p>
          )}
          <p class="small muted">{text.explain}</p>
          <form class="remind-form" onSubmit={send}>
            <label for={fieldId}>
              {text.email}
              <input
                id={fieldId}
                type="email"
                name="email"
                autoComplete="email"
                required
                value={email}
                onInput={(e) => setEmail((e.currentTarget as HTMLInputElement).value)}
                aria-describedby={ownAddress ? `${fieldId}-own` : undefined}
              />
            </label>
            <button type="submit" class="primary remind-send" disabled={busy || !email.trim()}>
              {busy ? text.sending : text.send}
            </button>
          </form>
          {ownAddress && (
            <p id={`${fieldId}-own`} class="small remind-account">
              {text.account}
            </p>
          )}
          <p class="small muted">{text.remembered}</p>
        </>
      )}
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}

/** Whether a room's time control is the one over days (reminders are offered only there). */
export function overDays(clock: object | null | undefined): boolean {
  return !!clock && "days_per_decision" in clock;
}
