// What the account's screens share (ui/account/): the account routes' client, the session as last
// answered, the note of the last sign-in, and how a screen runs a step and shows its failure.
import { signal } from "@preact/signals";
import { useState } from "preact/hooks";
import { errorMessage } from "../../i18n";
import type { AccountText } from "../../i18n/account";
import { AccountApi, AccountError } from "../../net/account";
import type { SessionState } from "../../net/protocol";
import { type Authenticator, browserAuthenticator } from "./webauthn";

export const api = new AccountApi();
let auth: Authenticator = browserAuthenticator;
/** The authenticator passkeys are asked of: the browser's, or a test's. */
export const authenticator = (): Authenticator => auth;
/** A test's own authenticator instead of the browser's. */
export function setAuthenticator(a: Authenticator): void {
  auth = a;
}

/** `GET /api/session` as last answered (`undefined`: not asked yet; `null`: no answer). */
export const session = signal<SessionState | null | undefined>(undefined);
let asking: Promise<void> | null = null;
export function askSession(): Promise<void> {
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
export const keptNote = signal<string | null>(null);
/** Forgets the answer: the next screen asks again. */
export function askAgain(): void {
  asking = null;
  session.value = undefined;
}
export const signedIn = (username: string | null) => {
  const s = session.value;
  if (s) session.value = { ...s, account: username === null ? null : { username } };
};

/** A failure's text: the account routes' own codes, the others', a passkey request cancelled. */
export function failure(text: AccountText, err: unknown): string {
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
export function useStep(text: AccountText | null) {
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

export function Failure({ error }: { error: string | null }) {
  return error ? (
    <p class="error" role="alert">
      {error}
    </p>
  ) : null;
}

/** The same page on the host passkeys work on (the relying party), when this page is on another. */
export function elsewhere(s: SessionState): string | null {
  if (!s.passkey_rp_id || location.hostname === s.passkey_rp_id) return null;
  return `${location.protocol}//${s.passkey_rp_id}${location.port ? `:${location.port}` : ""}${location.pathname}${location.hash}`;
}
