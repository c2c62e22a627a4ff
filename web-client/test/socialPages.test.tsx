// @vitest-environment happy-dom
// Friends, challenges and ratings on the page (ui/social/): the friends page lists the open
// challenges and the friends with their presence; removing asks first and then posts; a player's page
// on a server without ratings yet says so plainly; a rated room's game over shows each signed change.
import { render } from "preact";
import { act } from "preact/test-utils";
import { describe, expect, it, vi } from "vitest";
import type { RoomInfo } from "../src/net/protocol";
import { Slot } from "../src/ui/account/Account";
import { askAgain } from "../src/ui/account/shared";
import { mountPoint, until } from "./dom";

type Call = { url: string; method: string; body: unknown };

function server(answers: Record<string, [number, unknown]>) {
  const calls: Call[] = [];
  const fetchFn = async (url: string, init?: { method?: string; body?: string }) => {
    const method = init?.method ?? "GET";
    calls.push({ url, method, body: init?.body ? JSON.parse(init.body) : null });
    const [status, body] = answers[`${method} ${url}`] ?? [404, { code: "not_found", message: "no" }];
    return new Response(status === 204 ? null : JSON.stringify(body), { status });
  };
  return { calls, fetchFn };
}

const SIGNED_IN = { account: { username: "Ana" }, passkey_rp_id: "localhost", email_sign_in: false };
const CHALLENGE = {
  id: "c1",
  from: "Ben",
  to: "Ana",
  side: "rebel",
  clock: { bank_secs: 300, increment_secs: 5 },
  rated: true,
  spectators: "off",
  mode: "full",
  created_at_ms: 1,
  expires_at_ms: 2,
};

describe("the social pages", () => {
  const root = mountPoint();

  it("the friends page: a challenge to answer, a friend's presence, removing asks first", async () => {
    const { calls, fetchFn } = server({
      "GET /api/session": [200, SIGNED_IN],
      "GET /api/account/friends": [
        200,
        {
          friends: [{ username: "Ben", since_ms: 1, online: false, at_table: true }],
          incoming: [],
          outgoing: [],
          blocked: [],
        },
      ],
      "GET /api/account/challenges": [
        200,
        { incoming: [CHALLENGE], outgoing: [], accepted: [], who_may_challenge: "friends" },
      ],
      "POST /api/account/friends/remove": [204, null],
    });
    vi.stubGlobal("fetch", fetchFn);
    askAgain();
    // the challenges were asked before (the notice on every page): opening the page asks for the
    // friends once
    const { challengeList } = await import("../src/ui/social/challenges");
    challengeList.value = { incoming: [], outgoing: [], accepted: [], who_may_challenge: "friends" };
    act(() => render(<Slot at="social" sub="friends" />, root()));
    await until(() => root().querySelector(".friend-list .friend") !== null);
    await new Promise((r) => setTimeout(r, 20));
    expect(calls.filter((c) => c.url === "/api/account/friends").length).toBe(1);
    // the challenges' list is the poll's (ui/social/challenges.ts); asked here by hand
    const { refreshChallenges } = await import("../src/ui/social/challenges");
    await act(() => refreshChallenges());
    await until(() => root().querySelector(".challenge-list.incoming li") !== null);
    expect(root().querySelector(".challenge-list.incoming")!.textContent).toContain("Ben challenges you");
    expect(root().querySelector(".challenge-list.incoming")!.textContent).toContain(
      "you play Imperial · 5 min + 5 s · rated",
    );
    expect(root().querySelector(".friend-list .presence")!.textContent).toBe("at a table");
    // friends news from the account's event stream: the open page asks for its list again
    const { friendsNews } = await import("../src/ui/social/challenges");
    const listed = () => calls.filter((c) => c.url === "/api/account/friends").length;
    const before = listed();
    act(() => {
      friendsNews.value += 1;
    });
    await until(() => listed() === before + 1);
    const button = (label: string) =>
      [...root().querySelectorAll<HTMLButtonElement>("button")].find((b) => b.textContent === label)!;
    act(() => button("Remove").click());
    expect(root().querySelector("[role=alertdialog]")!.textContent).toContain("Remove Ben from your friends?");
    expect(calls.some((c) => c.method === "POST")).toBe(false);
    await act(async () => {
      button("Yes").click();
      await new Promise((r) => setTimeout(r, 10));
    });
    expect(calls.filter((c) => c.method === "POST")).toEqual([
      { url: "/api/account/friends/remove", method: "POST", body: { username: "Ben" } },
    ]);
  });

  it("signed in, the page follows the account's event stream: an event asks for the challenges at once", async () => {
    const streams: FakeEventSource[] = [];
    class FakeEventSource extends EventTarget {
      closed = false;
      constructor(readonly url: string) {
        super();
        streams.push(this);
      }
      close() {
        this.closed = true;
      }
    }
    const { calls, fetchFn } = server({
      "GET /api/account/challenges": [200, { incoming: [], outgoing: [], accepted: [], who_may_challenge: "friends" }],
    });
    vi.stubGlobal("fetch", fetchFn);
    vi.stubGlobal("EventSource", FakeEventSource);
    try {
      const { followChallenges } = await import("../src/ui/social/challenges");
      const asked = () => calls.filter((c) => c.url === "/api/account/challenges").length;
      followChallenges("Ana");
      await until(() => asked() === 1);
      expect(streams.map((e) => e.url)).toEqual(["/api/account/events"]);
      streams[0]!.dispatchEvent(new Event("challenges"));
      await until(() => asked() === 2);
      // friends news is counted for an open friends page (which asks for its list at each)
      const { friendsNews } = await import("../src/ui/social/challenges");
      const before = friendsNews.value;
      streams[0]!.dispatchEvent(new Event("friends"));
      expect(friendsNews.value).toBe(before + 1);
      expect(asked()).toBe(2);
      // connected: the poll has just asked; connected again after a cut: asked again, what was
      // said meanwhile is unknown
      streams[0]!.dispatchEvent(new Event("open"));
      streams[0]!.dispatchEvent(new Event("open"));
      await until(() => asked() === 3);
      await new Promise((r) => setTimeout(r, 20));
      expect(asked()).toBe(3);
      followChallenges(null);
      expect(streams[0]!.closed).toBe(true);
      streams[0]!.dispatchEvent(new Event("challenges"));
      await new Promise((r) => setTimeout(r, 20));
      expect(asked()).toBe(3);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it("a challenge sent is told accepted only when the server lists it accepted, with its room", async () => {
    const sent = (id: string) => ({ ...CHALLENGE, id, from: "Ana", to: "Ben" });
    const lists = [
      { incoming: [], outgoing: [sent("c1")], accepted: [], who_may_challenge: "friends" },
      // declined (the account keeps other rooms, made since: nothing says they are this challenge's)
      { incoming: [], outgoing: [], accepted: [], who_may_challenge: "friends" },
      { incoming: [], outgoing: [sent("c2")], accepted: [], who_may_challenge: "friends" },
      {
        incoming: [],
        outgoing: [],
        accepted: [{ id: "c2", to: "Ben", code: "ROOM2222" }],
        who_may_challenge: "friends",
      },
    ];
    let asked = 0;
    vi.stubGlobal("fetch", async (url: string) => {
      if (url !== "/api/account/challenges") return new Response("{}", { status: 404 });
      return new Response(JSON.stringify(lists[Math.min(asked++, lists.length - 1)]), { status: 200 });
    });
    try {
      const { acceptedRoom, challengeList, refreshChallenges } = await import("../src/ui/social/challenges");
      challengeList.value = null;
      acceptedRoom.value = null;
      await refreshChallenges();
      await refreshChallenges();
      expect(acceptedRoom.value).toBeNull();
      await refreshChallenges();
      await refreshChallenges();
      expect(acceptedRoom.value).toEqual({ code: "ROOM2222", by: "Ben" });
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it("a player's page on a server without ratings yet says so", async () => {
    const { fetchFn } = server({ "GET /api/session": [200, SIGNED_IN] });
    vi.stubGlobal("fetch", fetchFn);
    askAgain();
    act(() => render(<Slot at="social" sub="players/Ben" />, root()));
    await until(() => root().querySelector("[role=alert]") !== null);
    expect(root().querySelector("[role=alert]")!.textContent).toBe("Ratings are not available on this server yet.");
  });

  it("a rated game's end shows each player's rating and signed change", async () => {
    const { fetchFn } = server({ "GET /api/session": [200, SIGNED_IN] });
    vi.stubGlobal("fetch", fetchFn);
    askAgain();
    const room = {
      code: "KJCHM97E",
      names: ["Ana", "Ben"],
      options: { side: "rebel", mode: "full", spectators: "off", rated: true },
      ratings: [
        { now: { rating: 1512, deviation: 300, provisional: true }, change: 12 },
        { now: { rating: 1488, deviation: 300, provisional: true }, change: -12 },
      ],
    } as unknown as RoomInfo;
    act(() => render(<Slot at="room" room={room} seated={false} />, root()));
    await until(() => root().querySelector(".rating-changes") !== null);
    expect([...root().querySelectorAll(".rating-changes li")].map((l) => l.textContent)).toEqual([
      "Ana 1512? (+12)",
      "Ben 1488? (\u221212)",
    ]);
  });
});
