// The account's steps that are not screens: a passkey ceremony (register, sign in, add a passkey),
// keeping this device's seats in the account, the account's rooms this device does not hold, and a
// seat of the account taken on this device (proto/PROTOCOL.md, *Accounts*).
import type { AccountApi } from "../../net/account";
import { MAX_SEATS_KEPT_AT_ONCE, type PasskeyInfo } from "../../net/protocol";
import type { TokenStore } from "../../net/tokens";
import type { Authenticator } from "./webauthn";

/** How this device's seats fared: how many the account keeps now, and how many another account does. */
export interface KeptCount {
  kept: number;
  other: number;
}

/** Asks the account to keep every seat this device holds (at most 50 a request); `only`: just these rooms. */
export async function keepDeviceSeats(
  api: AccountApi,
  tokens: TokenStore,
  only?: readonly string[],
): Promise<KeptCount> {
  const seats = tokens
    .rooms()
    .filter((r) => !only || only.includes(r.code))
    .map((r) => ({ code: r.code, token: tokens.getToken(r.code)! }));
  const count = { kept: 0, other: 0 };
  for (let i = 0; i < seats.length; i += MAX_SEATS_KEPT_AT_ONCE) {
    const answer = await api.keepSeats(seats.slice(i, i + MAX_SEATS_KEPT_AT_ONCE));
    for (const s of answer.seats) {
      if (s.outcome === "kept" || s.outcome === "already") count.kept++;
      else if (s.outcome === "other_account") count.other++;
    }
  }
  return count;
}

/** A new account named `username` with a passkey made now; then this device's seats are kept in it. */
export async function register(
  api: AccountApi,
  auth: Authenticator,
  tokens: TokenStore,
  username: string,
): Promise<{ username: string; kept: KeptCount }> {
  const begun = await api.registerBegin(username);
  const credential = await auth.create(begun.options);
  const done = await api.registerFinish(begun.ceremony, credential);
  return { username: done.username, kept: await keepDeviceSeats(api, tokens) };
}

/** Signs in with a passkey of this site (the browser asks which; with `signal`, from its autofill);
 *  then this device's seats are kept in the account. */
export async function signIn(
  api: AccountApi,
  auth: Authenticator,
  tokens: TokenStore,
  signal?: AbortSignal,
): Promise<{ username: string; kept: KeptCount }> {
  const begun = await api.signInBegin();
  const credential = await auth.get(begun.options, signal);
  const done = await api.signInFinish(begun.ceremony, credential);
  return { username: done.username, kept: await keepDeviceSeats(api, tokens) };
}

/** Another passkey for the signed-in account, made on this device. */
export async function addPasskey(api: AccountApi, auth: Authenticator): Promise<PasskeyInfo> {
  const begun = await api.passkeyBegin();
  return api.passkeyFinish(begun.ceremony, await auth.create(begun.options));
}

/** This device takes its own token for a seat the account keeps, stored as any seat's token. */
export async function takeAccountSeat(api: AccountApi, tokens: TokenStore, code: string): Promise<void> {
  const { token } = await api.takeSeat(code);
  tokens.setToken(code, token);
}
