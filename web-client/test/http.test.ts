import { describe, expect, it } from "vitest";
import { ApiClient, ApiError, type FetchLike } from "../src/net/http";
import type { CreatedRoom } from "../src/net/protocol";

function fakeFetch(status: number, body: unknown, calls: { url: string; body?: string }[]): FetchLike {
  return async (url, init) => {
    calls.push({ url, body: init?.body });
    return { ok: status >= 200 && status < 300, status, json: async () => body };
  };
}

describe("ApiClient", () => {
  it("creates a room (no watch link when spectators are off)", async () => {
    const calls: { url: string; body?: string }[] = [];
    const created: CreatedRoom = {
      code: "Q7",
      seat: "imperial",
      token: "t",
      invite_url: "https://evr.example/r/Q7/join#s",
      watch_url: null,
      join_code: "204518",
    };
    const api = new ApiClient(fakeFetch(201, created, calls));
    await expect(api.createRoom({ side: "random", mode: "full", spectators: "off" })).resolves.toEqual(created);
    expect(calls[0]).toEqual({ url: "/api/rooms", body: '{"side":"random","mode":"full","spectators":"off"}' });
  });

  it("joins with the invite and surfaces refusals as ApiError codes", async () => {
    const calls: { url: string; body?: string }[] = [];
    const api = new ApiClient(fakeFetch(409, { code: "seat_taken", message: "taken" }, calls));
    const err = await api.joinRoom("Q7", { invite: "secret" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 409, code: "seat_taken" });
    expect(calls[0]).toEqual({ url: "/api/rooms/Q7/join", body: '{"invite":"secret"}' });
  });

  it("joins with a join code under a name, never with the room code alone", async () => {
    const calls: { url: string; body?: string }[] = [];
    const api = new ApiClient(fakeFetch(200, { seat: "rebel", token: "t" }, calls));
    await api.joinRoom("Q7", { join_code: "204518" }, "Ana");
    expect(calls[0]).toEqual({ url: "/api/rooms/Q7/join", body: '{"join_code":"204518","name":"Ana"}' });
  });

  it("moves a seat with the seat token in Authorization, and takes it with the link's secret", async () => {
    const seen: { url: string; init?: Parameters<FetchLike>[1] }[] = [];
    const api = new ApiClient(async (url, init) => {
      seen.push({ url, init });
      return { ok: true, status: 201, json: async () => ({ url: "/r/Q7/take#s", expires_at: 1 }) };
    });
    await api.transferSeat("Q7", "tok");
    await api.takeSeat("Q7", "s");
    await api.seatSummary("Q7", "tok");
    expect(seen.map((s) => [s.url, s.init?.method, s.init?.headers?.authorization ?? null])).toEqual([
      ["/api/rooms/Q7/transfer", "POST", "Bearer tok"],
      ["/api/rooms/Q7/take", "POST", null],
      ["/api/rooms/Q7/seat", "GET", "Bearer tok"],
    ]);
    expect(seen[1]?.init?.body).toBe('{"secret":"s"}');
  });

  it("maps network failures to code network", async () => {
    const api = new ApiClient(async () => {
      throw new TypeError("offline");
    });
    await expect(api.joinRoom("Q7", { invite: "s" })).rejects.toMatchObject({ code: "network", status: 0 });
  });

  it("an answer that is not the protocol's is bad_response, with the status", async () => {
    const proxyPage: FetchLike = async () => ({
      ok: false,
      status: 502,
      json: async () => {
        throw new SyntaxError("Unexpected token <");
      },
    });
    await expect(new ApiClient(proxyPage).joinRoom("Q7", { invite: "s" })).rejects.toMatchObject({
      code: "bad_response",
      status: 502,
    });
    const noBody = new ApiClient(fakeFetch(201, null, []));
    await expect(noBody.createRoom({ side: "rebel", mode: "full", spectators: "off" })).rejects.toMatchObject({
      code: "bad_response",
      status: 201,
    });
  });
});
