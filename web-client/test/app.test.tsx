// @vitest-environment happy-dom
// The whole app on the room route, with the browser WebSocket replaced by a fake.
import { render } from "preact";
import { act } from "preact/test-utils";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { setLanguage } from "../src/i18n";
import { PROTOCOL_VERSION } from "../src/net/protocol";
import { FakeSocket, makeView, PRESENCE, welcome } from "./fakes";

let sockets: FakeSocket[] = [];
let root: HTMLElement;

beforeEach(() => {
  sockets = [];
  (globalThis as { WebSocket: unknown }).WebSocket = class extends FakeSocket {
    constructor(url: string) {
      super(url);
      sockets.push(this);
    }
  };
  root = document.createElement("div");
  document.body.appendChild(root);
  setLanguage("en");
});
afterEach(() => {
  render(null, root);
  root.remove();
  localStorage.clear();
});

async function mountAt(path: string) {
  history.replaceState(null, "", path);
  const { App } = await import("../src/ui/App");
  const { navigate } = await import("../src/ui/router");
  navigate(path, true);
  act(() => render(<App />, root));
}

describe("App", () => {
  it("without a stored token, offers to watch", async () => {
    await mountAt("/r/KJCHM971");
    expect(root.textContent).toContain("You have no seat in this room on this device.");
    expect(sockets.length).toBe(0);
  });

  it("with a stored token: hello, lobby with invite link, then the table", async () => {
    localStorage.setItem("evr.token.KJCHM972", "tok2");
    localStorage.setItem("evr.invite.KJCHM972", "/r/KJCHM972/join#sec");
    await mountAt("/r/KJCHM972");
    expect(sockets.length).toBe(1);
    expect(sockets[0]!.url).toMatch(/\/ws\/KJCHM972$/);
    act(() => sockets[0]!.serverOpen());
    expect(sockets[0]!.sent[0]).toEqual({ type: "hello", version: PROTOCOL_VERSION, token: "tok2", last_seq: null });
    const lonely = {
      ...PRESENCE,
      seats: [PRESENCE.seats[0], { taken: false, connected: false, claim_in_seconds: null }] as typeof PRESENCE.seats,
    };
    const w = welcome(0, makeView({ phase: "character_choice", turn: null }));
    act(() => sockets[0]!.serverSend({ ...w, presence: lonely } as typeof w));
    expect(root.textContent).toContain("Waiting for your opponent");
    expect((root.querySelector("input[readonly]") as HTMLInputElement).value).toContain("/r/KJCHM972/join#sec");
    act(() => sockets[0]!.serverSend({ type: "presence", presence: PRESENCE }));
    expect(root.textContent).toContain("Choose 4 characters");
    act(() =>
      sockets[0]!.serverSend({
        type: "update",
        seq: 1,
        changes: { phase: "struggle", turn: "rebel", legal_actions: [{ type: "play_card" }] },
        events: [],
      }),
    );
    const play = [...root.querySelectorAll("button")].find((b) => b.textContent === "Play top card")!;
    act(() => play.click());
    expect(sockets[0]!.last()).toMatchObject({ type: "action", based_on: 1, action: { type: "play_card" } });
    expect(root.textContent).toContain("Sending…");
  });

  it("before the room's first state, only its code and the connection's state; then the page all at once", async () => {
    localStorage.setItem("evr.token.KJCHM976", "tok6");
    await mountAt("/r/KJCHM976");
    act(() => sockets[0]!.serverOpen());
    // nothing that the first state would move: no header, no drawers, no chat
    expect(root.querySelector("h1")?.textContent).toContain("KJCH-M976");
    expect(root.querySelector(".conn")).not.toBeNull();
    expect(root.querySelector(".topbar, #reference, details.log, .chat")).toBeNull();
    act(() => sockets[0]!.serverSend(welcome(0, makeView({ phase: "struggle", legal_actions: [{ type: "pass" }] }))));
    expect(root.querySelector(".topbar .conn")).not.toBeNull();
    expect(root.querySelector("#reference")).not.toBeNull();
    expect(root.querySelector(".board.table")).not.toBeNull();
  });

  it("on a phone, a Dominance phase that opens with this player's choice starts at that choice, not at the top", async () => {
    const realMatchMedia = window.matchMedia;
    window.matchMedia = ((query: string) => ({
      matches: query.includes("max-width: 900px"),
      media: query,
      onchange: null,
      addEventListener() {},
      removeEventListener() {},
      addListener() {},
      removeListener() {},
      dispatchEvent: () => false,
    })) as typeof window.matchMedia;
    const scrolledTo: string[] = [];
    const realIntoView = Element.prototype.scrollIntoView;
    const realScrollTo = window.scrollTo;
    Element.prototype.scrollIntoView = function (this: Element) {
      scrolledTo.push(this.getAttribute("role") ?? this.className);
    };
    window.scrollTo = (() => scrolledTo.push("top")) as typeof window.scrollTo;
    try {
      localStorage.setItem("evr.token.KJCHM975", "tok5");
      await mountAt("/r/KJCHM975");
      act(() => sockets[0]!.serverOpen());
      act(() => sockets[0]!.serverSend(welcome(4, makeView({ phase: "struggle", turn: "imperial" }))));
      scrolledTo.length = 0;
      // both passed; the round's winner (the rebel) adds a reserve character (Rebel Uprising) first
      act(() =>
        sockets[0]!.serverSend({
          type: "update",
          seq: 5,
          changes: {
            phase: "dominance",
            turn: null,
            pending: {
              owner: "rebel",
              source: { kind: "event", event: "Rebel Uprising" },
              step: { step: "add_reserve_character" },
              options: [
                { kind: "character", card: "Leia Organa", to: "play_area" },
                { kind: "character", card: "Leia Organa", to: "deck" },
              ],
              seen_cards: null,
              seen_events: null,
            },
          },
          events: [],
        }),
      );
      expect(root.querySelector('[role="dialog"]')).not.toBeNull();
      expect(scrolledTo).toEqual(["dialog"]);
      // a phase that brings no decision of this player starts at the top
      act(() =>
        sockets[0]!.serverSend({
          type: "update",
          seq: 6,
          changes: { phase: "planning", round: 2, pending: null },
          events: [],
        }),
      );
      expect(scrolledTo).toEqual(["dialog", "top"]);
    } finally {
      window.matchMedia = realMatchMedia;
      Element.prototype.scrollIntoView = realIntoView;
      window.scrollTo = realScrollTo;
    }
  });

  it("when the opponent is away past the grace period, offers to claim the win", async () => {
    localStorage.setItem("evr.token.KJCHM974", "tok4");
    await mountAt("/r/KJCHM974");
    act(() => sockets[0]!.serverOpen());
    act(() => sockets[0]!.serverSend(welcome(5)));
    const away = {
      ...PRESENCE,
      seats: [PRESENCE.seats[0], { taken: true, connected: false, claim_in_seconds: 0 }] as typeof PRESENCE.seats,
    };
    act(() => sockets[0]!.serverSend({ type: "presence", presence: away }));
    expect(root.textContent).toContain("Imperial: away");
    const claim = [...root.querySelectorAll("button")].find((b) => b.textContent === "Claim the win")!;
    act(() => claim.click());
    expect(sockets[0]!.last()).toEqual({ type: "claim_win" });
  });

  it("an invite link opened where this room's seat is already held keeps that seat", async () => {
    localStorage.setItem("evr.token.KJCHM975", "mine");
    await mountAt("/r/KJCHM975/join#secret");
    expect(location.pathname).toBe("/r/KJCHM975");
    expect(localStorage.getItem("evr.token.KJCHM975")).toBe("mine");
  });

  it("an opponent's rematch offer shows in the tab's title", async () => {
    localStorage.setItem("evr.token.KJCHM976", "tok6");
    globalThis.fetch = (await import("./fakes")).noGamesFetch as typeof fetch;
    await mountAt("/r/KJCHM976");
    act(() => sockets[0]!.serverOpen());
    act(() =>
      sockets[0]!.serverSend(
        welcome(
          9,
          makeView({ phase: "game_over", outcome: { winner: "rebel", reason: "victory_points", vp: [7, 2] } }),
        ),
      ),
    );
    act(() => sockets[0]!.serverSend({ type: "presence", presence: PRESENCE }));
    expect(document.title).not.toContain("Rematch");
    const room = (await import("./fakes")).ROOM;
    act(() => sockets[0]!.serverSend({ type: "room", room: { ...room, rematch_requested: [false, true] } }));
    expect(document.title).toMatch(/^↻ Rematch offered · /);
    expect(root.querySelector(".gameover .rematch-offer")?.textContent).toContain("offers a rematch");
  });

  it("shows a fatal refusal", async () => {
    localStorage.setItem("evr.token.KJCHM973", "bad");
    await mountAt("/r/KJCHM973");
    act(() => sockets[0]!.serverOpen());
    act(() => sockets[0]!.serverSend({ type: "error", code: "bad_token", message: "bad token", action_id: null }));
    expect(root.textContent).toContain("Your seat link is not valid for this room.");
  });
});

describe("Entering a room by its code", () => {
  /** Answers the room API like the server: `rooms` maps codes to whether their seat is free. */
  function fakeApi(rooms: Record<string, { seat_free: boolean; spectators: "off" | "anyone_with_link" }>) {
    const calls: string[] = [];
    globalThis.fetch = (async (input: string, init?: { method?: string; body?: string }) => {
      const method = init?.method ?? "GET";
      // the landing page's account entry asks who is signed in (ui/account/): not the room's
      if (input !== "/api/session") calls.push(`${method} ${input}${init?.body ? ` ${init.body}` : ""}`);
      const m = /^\/api\/rooms\/([^/]+)(\/join)?$/.exec(input);
      const room = m ? rooms[m[1]!] : undefined;
      const answer = (status: number, body: unknown) =>
        ({ ok: status < 300, status, json: async () => body }) as unknown as Response;
      if (!m || !room) return answer(404, { code: "room_not_found", message: "no such room" });
      if (!m[2]) return answer(200, { code: m[1], ...room });
      return room.seat_free
        ? answer(200, { seat: "imperial", token: "guest-token" })
        : answer(409, { code: "seat_taken", message: "both seats are taken" });
    }) as typeof fetch;
    return calls;
  }

  async function enterCode(typed: string, joinCode = "") {
    await mountAt("/");
    const input = root.querySelector("input#code") as HTMLInputElement;
    const type = (el: HTMLInputElement, value: string) =>
      act(() => {
        el.value = value;
        el.dispatchEvent(new Event("input", { bubbles: true }));
      });
    type(input, typed);
    if (joinCode) type(root.querySelector("input#join-code") as HTMLInputElement, joinCode);
    const form = input.closest("form") as HTMLFormElement;
    await act(async () => {
      form.dispatchEvent(new Event("submit", { bubbles: true, cancelable: true }));
      await new Promise((r) => setTimeout(r, 0));
    });
  }

  it("takes the free seat with the code as typed (any case, grouped) and the join code", async () => {
    const calls = fakeApi({ KJCHM97E: { seat_free: true, spectators: "anyone_with_link" } });
    await enterCode(" kjch-m97e ", "204 518");
    expect(calls).toEqual(["GET /api/rooms/KJCHM97E", 'POST /api/rooms/KJCHM97E/join {"join_code":"204518"}']);
    expect(localStorage.getItem("evr.token.KJCHM97E")).toBe("guest-token");
    expect(location.pathname).toBe("/r/KJCHM97E");
  });

  it("the room code alone never takes a seat: it asks for the join code, or offers to watch", async () => {
    const calls = fakeApi({ KJCHM97E: { seat_free: true, spectators: "anyone_with_link" } });
    await enterCode("KJCH-M97E");
    expect(calls).toEqual(["GET /api/rooms/KJCHM97E"]);
    expect(root.textContent).toContain("type the 6-digit join code its creator gave you");
    expect(localStorage.getItem("evr.token.KJCHM97E")).toBeNull();
    expect(location.pathname).toBe("/");
  });

  it("offers to watch when both seats are taken", async () => {
    const calls = fakeApi({ KJCHM97E: { seat_free: false, spectators: "anyone_with_link" } });
    await enterCode("KJCH-M97E");
    expect(calls).toEqual(["GET /api/rooms/KJCHM97E"]);
    expect(root.textContent).toContain("Both seats of room KJCH-M97E are taken. You can watch the game.");
    expect(root.querySelector('a[href="/r/KJCHM97E/watch"]')).not.toBeNull();
    expect(localStorage.getItem("evr.token.KJCHM97E")).toBeNull();
  });

  it("says so when no room has the code, or when it cannot be a code", async () => {
    fakeApi({});
    await enterCode("ZZZZ-ZZZZ");
    expect(root.textContent).toContain("This room does not exist");
    render(null, root);
    const calls = fakeApi({});
    await enterCode("ABC");
    expect(calls).toEqual([]);
    expect(root.textContent).toContain("A room code has 8 letters and digits");
  });

  it("goes straight to this device's own seat", async () => {
    localStorage.setItem("evr.token.KJCHM97E", "creator-token");
    const calls = fakeApi({ KJCHM97E: { seat_free: true, spectators: "anyone_with_link" } });
    await enterCode("kjchm97e");
    // (the list of this device's rooms asks where its seat stands; entering asks nothing)
    expect(calls.filter((c) => !c.endsWith("/seat"))).toEqual([]);
    expect(location.pathname).toBe("/r/KJCHM97E");
    expect(localStorage.getItem("evr.token.KJCHM97E")).toBe("creator-token");
  });
});

describe("Creating a room", () => {
  /** Submits the landing's create form with the reveal box as given; returns the POSTed body. */
  async function create(reveal: boolean): Promise<unknown> {
    let body: unknown = null;
    globalThis.fetch = (async (input: string, init?: { body?: string }) => {
      if (input !== "/api/session") body = JSON.parse(init?.body ?? "null");
      return {
        ok: true,
        status: 201,
        json: async () => ({ code: "KJCHM97E", seat: "rebel", token: "t", invite_url: null, watch_url: null }),
      } as unknown as Response;
    }) as typeof fetch;
    await mountAt("/");
    const box = root.querySelector('input[name="reveal_at_end"]') as HTMLInputElement;
    expect(box.checked).toBe(false);
    if (reveal) act(() => box.click());
    const form = box.closest("form") as HTMLFormElement;
    await act(async () => {
      form.dispatchEvent(new Event("submit", { bubbles: true, cancelable: true }));
      await new Promise((r) => setTimeout(r, 0));
    });
    return body;
  }

  it("asks to reveal every game at its end only when the box is ticked", async () => {
    expect(await create(true)).toMatchObject({ reveal_at_end: true });
    expect(await create(false)).not.toHaveProperty("reveal_at_end");
  });
});
