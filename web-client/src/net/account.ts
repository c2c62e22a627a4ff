// The account routes (proto/PROTOCOL.md, *Accounts*): the session, passkeys (WebAuthn ceremonies),
// signed-in devices, kept seats and the account's rooms, mailed links, the export and deletion. The
// session is an HttpOnly cookie the browser sends by itself (`credentials: "same-origin"`): this code
// never sees it. Imported only by the account screens (ui/account/), which the page loads on demand.
import type {
  AccountDetails,
  AccountRooms,
  CeremonyStart,
  Challenge,
  ChallengeAccepted,
  ChallengeList,
  FriendAdded,
  FriendList,
  HeadToHead,
  HeldSeat,
  KeptSeats,
  Leaderboard,
  MailLanguage,
  NewChallenge,
  PasskeyInfo,
  PlayerPage,
  SeatSummary,
  SessionState,
  SignedOutSessions,
  WhoMayChallenge,
} from "./protocol";

/** A refused account request: the `ApiErrorBody` code (or a local one) and the HTTP status (0: no answer). */
export class AccountError extends Error {
  constructor(
    public status: number,
    public code: string,
    message: string,
  ) {
    super(message);
    this.name = "AccountError";
  }
}

export type AccountFetch = (
  input: string,
  init: { method: string; headers: Record<string, string>; body?: string; credentials: "same-origin" },
) => Promise<{ ok: boolean; status: number; json(): Promise<unknown> }>;

const friendPath = (action: string) => `/api/account/friends/${action}`;
const challengePath = (id: string) => `/api/account/challenges/${encodeURIComponent(id)}`;

const room = (code: string) => `/api/rooms/${encodeURIComponent(code)}`;

export class AccountApi {
  constructor(private fetchFn: AccountFetch = (i, init) => globalThis.fetch(i, init)) {}

  /** Sends a request; the answer's JSON (`null` for an answer without a body, 202/204). */
  private async send<T>(method: string, path: string, body?: unknown): Promise<T> {
    let res: Awaited<ReturnType<AccountFetch>>;
    try {
      res = await this.fetchFn(path, {
        method,
        headers: body === undefined ? {} : { "content-type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        credentials: "same-origin",
      });
    } catch (e) {
      throw new AccountError(0, "network", e instanceof Error ? e.message : String(e));
    }
    let data: unknown = null;
    if (res.status !== 204) data = await res.json().catch(() => null);
    if (!res.ok) {
      const err = data as { code?: unknown; message?: unknown } | null;
      if (err && typeof err.code === "string" && typeof err.message === "string") {
        throw new AccountError(res.status, err.code, err.message);
      }
      throw new AccountError(res.status, "bad_response", `HTTP ${res.status}`);
    }
    return data as T;
  }

  session = () => this.send<SessionState>("GET", "/api/session");
  registerBegin = (username: string) => this.send<CeremonyStart>("POST", "/api/account/register/begin", { username });
  registerFinish = (ceremony: string, credential: unknown) =>
    this.send<{ username: string }>("POST", "/api/account/register/finish", { ceremony, credential });
  signInBegin = () => this.send<CeremonyStart>("POST", "/api/account/sign-in/begin", {});
  signInFinish = (ceremony: string, credential: unknown) =>
    this.send<{ username: string }>("POST", "/api/account/sign-in/finish", { ceremony, credential });
  signOut = () => this.send<null>("POST", "/api/account/sign-out", {});
  details = () => this.send<AccountDetails>("GET", "/api/account");
  passkeyBegin = () => this.send<CeremonyStart>("POST", "/api/account/passkeys/begin", {});
  passkeyFinish = (ceremony: string, credential: unknown) =>
    this.send<PasskeyInfo>("POST", "/api/account/passkeys/finish", { ceremony, credential });
  removePasskey = (id: string) => this.send<null>("DELETE", `/api/account/passkeys/${encodeURIComponent(id)}`);
  endSession = (id: string) => this.send<null>("DELETE", `/api/account/sessions/${encodeURIComponent(id)}`);
  signOutOthers = () => this.send<SignedOutSessions>("POST", "/api/account/sessions/sign-out-others", {});
  keepSeats = (seats: HeldSeat[]) => this.send<KeptSeats>("POST", "/api/account/seats", { seats });
  rooms = () => this.send<AccountRooms>("GET", "/api/account/rooms");
  seat = (code: string) => this.send<SeatSummary>("GET", `${room(code)}/account-seat`);
  takeSeat = (code: string) => this.send<{ seat: string; token: string }>("POST", `${room(code)}/account-seat`, {});
  setEmail = (email: string, language: MailLanguage) =>
    this.send<null>("POST", "/api/account/email", { email, language });
  confirmEmail = (secret: string) => this.send<null>("POST", "/api/account/email/confirm", { secret });
  emailSignIn = (email: string, language: MailLanguage) =>
    this.send<null>("POST", "/api/account/sign-in/email", { email, language });
  linkSignIn = (secret: string) => this.send<{ username: string }>("POST", "/api/account/sign-in/link", { secret });
  exportData = () => this.send<unknown>("GET", "/api/account/export");
  deleteAccount = (username: string) => this.send<null>("POST", "/api/account/delete", { username });

  // friends and challenges (proto/PROTOCOL.md, *Friends and challenges*)
  friends = () => this.send<FriendList>("GET", "/api/account/friends");
  addFriend = (by: { username: string } | { room: string }) =>
    this.send<FriendAdded>("POST", "/api/account/friends", by);
  /** accept, decline, remove (a friend, or a request sent), block, unblock */
  friendAction = (action: "accept" | "decline" | "remove" | "block" | "unblock", username: string) =>
    this.send<null>("POST", friendPath(action), { username });
  record = (username: string) => this.send<HeadToHead>("GET", friendPath(`${encodeURIComponent(username)}/record`));
  challenges = () => this.send<ChallengeList>("GET", "/api/account/challenges");
  challenge = (c: NewChallenge) => this.send<Challenge>("POST", "/api/account/challenges", c);
  challengeSettings = (who: WhoMayChallenge) =>
    this.send<null>("POST", "/api/account/challenges/settings", { who_may_challenge: who });
  acceptChallenge = (id: string) => this.send<ChallengeAccepted>("POST", `${challengePath(id)}/accept`, {});
  declineChallenge = (id: string) => this.send<null>("POST", `${challengePath(id)}/decline`, {});
  withdrawChallenge = (id: string) => this.send<null>("DELETE", challengePath(id));
  // ratings (public)
  player = (username: string) => this.send<PlayerPage>("GET", `/api/players/${encodeURIComponent(username)}`);
  leaderboard = () => this.send<Leaderboard>("GET", "/api/leaderboard");
}
