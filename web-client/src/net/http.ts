import type { Faction, RoomOptions } from "./protocol";

export interface CreatedRoom {
  code: string;
  seat: Faction;
  token: string;
  /** Absent when the computer takes the other seat. */
  invite_url: string | null;
  watch_url: string;
}

export interface JoinedRoom {
  seat: Faction;
  token: string;
}

/** A refusal from the HTTP API: `{"code", "message"}` plus the status. */
export class ApiError extends Error {
  constructor(
    public status: number,
    public code: string,
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

export class ApiClient {
  constructor(
    private fetchFn: FetchLike = (i, init) => globalThis.fetch(i, init),
    private base = "",
  ) {}

  private async post<T>(path: string, body: unknown): Promise<T> {
    let res: Awaited<ReturnType<FetchLike>>;
    try {
      res = await this.fetchFn(`${this.base}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
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
      const d = (data ?? {}) as { code?: string; message?: string };
      throw new ApiError(res.status, d.code ?? `http_${res.status}`, d.message ?? "request failed");
    }
    return data as T;
  }

  createRoom(options: RoomOptions): Promise<CreatedRoom> {
    return this.post<CreatedRoom>("/api/rooms", options);
  }

  joinRoom(code: string, invite: string): Promise<JoinedRoom> {
    return this.post<JoinedRoom>(`/api/rooms/${encodeURIComponent(code)}/join`, { invite });
  }
}
