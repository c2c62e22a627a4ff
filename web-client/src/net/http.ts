// The HTTP API (proto/PROTOCOL.md): create a room, look one up by its code, take the free seat, the
// room's games and a finished game's replay steps. Bodies
// are the generated types.
import type {
  ApiErrorBody,
  ClientErrorCode,
  CreatedRoom,
  GameArchive,
  JoinedRoom,
  JoinRequest,
  ReplayEyes,
  ReplaySteps,
  RoomOptions,
  RoomStatus,
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
  init?: { method?: string; headers?: Record<string, string>; body?: string },
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

export class ApiClient {
  constructor(
    private fetchFn: FetchLike = (i, init) => globalThis.fetch(i, init),
    private base = "",
  ) {}

  private post<T>(path: string, body: unknown): Promise<T> {
    return this.request<T>(path, {
      method: "POST",
      headers: { "content-type": "application/json" },
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

  createRoom(options: RoomOptions): Promise<CreatedRoom> {
    return this.post<CreatedRoom>("/api/rooms", options);
  }

  /** Whether room `code` has a free seat and allows watching (`room_not_found` if there is none). */
  roomStatus(code: string): Promise<RoomStatus> {
    return this.request<RoomStatus>(`/api/rooms/${encodeURIComponent(code)}`, { method: "GET" });
  }

  /** The room's games, oldest first, with their results and whether their replays can be downloaded. */
  games(code: string): Promise<GameArchive> {
    return this.request<GameArchive>(`/api/rooms/${encodeURIComponent(code)}/games`, { method: "GET" });
  }

  /** Finished game `game` of room `code` step by step, through `eyes`; a seat's own eyes need that
   *  seat's token, and a token also tells which side its holder played (`your_faction`). */
  replaySteps(code: string, game: number, eyes: ReplayEyes, token: string | null): Promise<ReplaySteps> {
    const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
    return this.request<ReplaySteps>(`/api/rooms/${encodeURIComponent(code)}/games/${game}/steps?eyes=${eyes}`, {
      method: "GET",
      headers,
    });
  }

  /** Takes the free seat with the invite secret, or (`null`) with the room code alone. */
  joinRoom(code: string, invite: string | null): Promise<JoinedRoom> {
    const body: JoinRequest = { invite };
    return this.post<JoinedRoom>(`/api/rooms/${encodeURIComponent(code)}/join`, body);
  }
}
