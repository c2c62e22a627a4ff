// The HTTP API (proto/PROTOCOL.md): create a room, look one up by its code, take the free seat (invite
// link or join code), a new invite, a seat moved to another device, a seat's summary, the room's
// games, a finished game's replay steps, and a seat's email reminders. Bodies are the generated types.
import type {
  AccountDetails,
  ApiErrorBody,
  ClientErrorCode,
  CreatedRoom,
  CreateRoom,
  GameArchive,
  JoinedRoom,
  JoinRequest,
  MailStatus,
  NewInvite,
  ReminderSettings,
  RemindersSet,
  ReplayEyes,
  ReplaySteps,
  RoomStatus,
  SeatDevices,
  SeatSummary,
  SeatTransfer,
  SetReminders,
  SignedOut,
  TakeSeat,
} from "./protocol";

/** A refused or failed request: the `ApiErrorBody` code (or a local code) plus the HTTP status (0: no answer). */
export class ApiError extends Error {
  constructor(
    public status: number,
    public code: ClientErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

export type FetchLike = (
  input: string,
  init?: { method?: string; headers?: Record<string, string>; body?: string; credentials?: "same-origin" },
) => Promise<{
  ok: boolean;
  status: number;
  json(): Promise<unknown>;
}>;

/** A refusal's body has the shape of `ApiErrorBody`. Its code is trusted like every message of the
 *  wire: one this client does not know (a newer server) shows the server's message. */
function isApiErrorBody(data: unknown): data is ApiErrorBody {
  return (
    typeof data === "object" &&
    data !== null &&
    "code" in data &&
    typeof data.code === "string" &&
    "message" in data &&
    typeof data.message === "string"
  );
}

/** The API path of room `code`. */
function room(code: string): string {
  return `/api/rooms/${encodeURIComponent(code)}`;
}

/** A seat token as the API takes it. */
function bearer(token: string | null): Record<string, string> {
  return token ? { authorization: `Bearer ${token}` } : {};
}

export class ApiClient {
  constructor(
    private fetchFn: FetchLike = (i, init) => globalThis.fetch(i, init),
    private base = "",
  ) {}

  private post<T>(path: string, body: unknown, token: string | null = null): Promise<T> {
    return this.request<T>(path, {
      method: "POST",
      headers: { "content-type": "application/json", ...bearer(token) },
      body: JSON.stringify(body),
    });
  }

  private async request<T>(path: string, init: Parameters<FetchLike>[1]): Promise<T> {
    let res: Awaited<ReturnType<FetchLike>>;
    try {
      res = await this.fetchFn(`${this.base}${path}`, init);
    } catch (e) {
      throw new ApiError(0, "network", e instanceof Error ? e.message : String(e));
    }
    let data: unknown = null;
    try {
      data = await res.json();
    } catch {
      data = null;
    }
    if (!res.ok) {
      if (isApiErrorBody(data)) throw new ApiError(res.status, data.code, data.message);
      throw new ApiError(res.status, "bad_response", `HTTP ${res.status}`);
    }
    if (data === null) throw new ApiError(res.status, "bad_response", `HTTP ${res.status} without a JSON body`);
    return data as T;
  }

  /** A request answered with no body (204) when it succeeds. */
  private async requestEmpty(path: string, init: Parameters<FetchLike>[1]): Promise<void> {
    let res: Awaited<ReturnType<FetchLike>>;
    try {
      res = await this.fetchFn(`${this.base}${path}`, init);
    } catch (e) {
      throw new ApiError(0, "network", e instanceof Error ? e.message : String(e));
    }
    if (res.ok) return;
    let data: unknown = null;
    try {
      data = await res.json();
    } catch {
      data = null;
    }
    if (isApiErrorBody(data)) throw new ApiError(res.status, data.code, data.message);
    throw new ApiError(res.status, "bad_response", `HTTP ${res.status}`);
  }

  /** Creates a room with these options (and the creator's display name, if any). */
  createRoom(body: CreateRoom): Promise<CreatedRoom> {
    return this.post<CreatedRoom>("/api/rooms", body);
  }

  /** Whether room `code` has a free seat and allows watching (`room_not_found` if there is none). */
  roomStatus(code: string): Promise<RoomStatus> {
    return this.request<RoomStatus>(`/api/rooms/${encodeURIComponent(code)}`, { method: "GET" });
  }

  /** The room's games, oldest first, with their results and whether their replays can be downloaded;
   *  a room without spectators shows them to its players only (this device's seat token). */
  games(code: string, token: string | null): Promise<GameArchive> {
    return this.request<GameArchive>(`${room(code)}/games`, { method: "GET", headers: bearer(token) });
  }

  /** Finished game `game` of room `code` step by step, through `eyes`; a seat's own eyes need that
   *  seat's token, and a token also tells which side its holder played (`your_faction`). */
  replaySteps(code: string, game: number, eyes: ReplayEyes, token: string | null): Promise<ReplaySteps> {
    return this.request<ReplaySteps>(`${room(code)}/games/${game}/steps?eyes=${eyes}`, {
      method: "GET",
      headers: bearer(token),
    });
  }

  /** Takes the free seat with the invite link's secret or the join code typed beside the room code
   *  (the room code alone never takes a seat), under a display name if one is given. */
  joinRoom(
    code: string,
    secret: { invite: string } | { join_code: string },
    name: string | null = null,
  ): Promise<JoinedRoom> {
    const body: JoinRequest = { ...secret, ...(name ? { name } : {}) };
    return this.post<JoinedRoom>(`${room(code)}/join`, body);
  }

  /** The creator's new invite link and join code (the old ones stop working). */
  newInvite(code: string, token: string): Promise<NewInvite> {
    return this.post<NewInvite>(`${room(code)}/invite`, {}, token);
  }

  /** A one-time link (10 minutes) that seats another device in the seat of `token`. */
  transferSeat(code: string, token: string): Promise<SeatTransfer> {
    return this.post<SeatTransfer>(`${room(code)}/transfer`, {}, token);
  }

  /** The devices the seat of `token` is played on. */
  seatDevices(code: string, token: string): Promise<SeatDevices> {
    return this.request<SeatDevices>(`${room(code)}/devices`, { method: "GET", headers: bearer(token) });
  }

  /** Every other device of the seat of `token` is signed out: their tokens stop working. */
  signOutOthers(code: string, token: string): Promise<SignedOut> {
    return this.post<SignedOut>(`${room(code)}/devices/sign-out-others`, {}, token);
  }

  /** This device takes the seat of a transfer link: a token of its own. */
  takeSeat(code: string, secret: string): Promise<JoinedRoom> {
    const body: TakeSeat = { secret };
    return this.post<JoinedRoom>(`${room(code)}/take`, body);
  }

  /** Where the seat of `token` stands in its room: whose turn, names, result. */
  seatSummary(code: string, token: string): Promise<SeatSummary> {
    return this.request<SeatSummary>(`${room(code)}/seat`, { method: "GET", headers: bearer(token) });
  }

  /** Whether this server can send reminders by email (when not, the page offers none). */
  mailStatus(): Promise<MailStatus> {
    return this.request<MailStatus>("/api/mail", { method: "GET" });
  }

  /** The masked address this seat's reminders go to, and whether it was confirmed. */
  reminders(code: string, token: string): Promise<ReminderSettings> {
    return this.request<ReminderSettings>(`${room(code)}/reminders`, { method: "GET", headers: bearer(token) });
  }

  /** Leaves `email` for this seat's reminders: the server first mails it a confirmation link — none
   *  when the session cookie (sent along) names an account whose confirmed address it is. */
  setReminders(code: string, token: string, body: SetReminders): Promise<RemindersSet> {
    return this.request<RemindersSet>(`${room(code)}/reminders`, {
      method: "PUT",
      headers: { "content-type": "application/json", ...bearer(token) },
      body: JSON.stringify(body),
      credentials: "same-origin",
    });
  }

  /** The signed-in account (the session cookie; `401 not_signed_in` without one): the reminders form
   *  offers its confirmed address. The account screens have their own client (net/account.ts). */
  account(): Promise<AccountDetails> {
    return this.request<AccountDetails>("/api/account", { method: "GET", credentials: "same-origin" });
  }

  /** Forgets this seat's address: no more reminders. */
  stopReminders(code: string, token: string): Promise<void> {
    return this.requestEmpty(`${room(code)}/reminders`, { method: "DELETE", headers: bearer(token) });
  }
}
