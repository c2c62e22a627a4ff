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
    await mountAt("/r/Room1");
    expect(root.textContent).toContain("You have no seat in this room on this device.");
    expect(sockets.length).toBe(0);
  });

  it("with a stored token: hello, lobby with invite link, then the table", async () => {
    localStorage.setItem("evr.token.Room2", "tok2");
    localStorage.setItem("evr.invite.Room2", "/r/Room2/join#sec");
    await mountAt("/r/Room2");
    expect(sockets.length).toBe(1);
    expect(sockets[0]!.url).toMatch(/\/ws\/Room2$/);
    act(() => sockets[0]!.serverOpen());
    expect(sockets[0]!.sent[0]).toEqual({ type: "hello", version: PROTOCOL_VERSION, token: "tok2", last_seq: null });
    const lonely = {
      ...PRESENCE,
      seats: [PRESENCE.seats[0], { taken: false, connected: false, claim_in_seconds: null }] as typeof PRESENCE.seats,
    };
    const w = welcome(0, makeView({ phase: "character_choice", turn: null }));
    act(() => sockets[0]!.serverSend({ ...w, presence: lonely } as typeof w));
    expect(root.textContent).toContain("Waiting for your opponent");
    expect((root.querySelector("input[readonly]") as HTMLInputElement).value).toContain("/r/Room2/join#sec");
    act(() => sockets[0]!.serverSend({ type: "presence", presence: PRESENCE }));
    expect(root.textContent).toContain("Choose 4 characters");
    act(() =>
      sockets[0]!.serverSend({
        type: "update",
        seq: 1,
        view: makeView({ legal_actions: [{ type: "play_card" }] }),
        events: [],
      }),
    );
    const play = [...root.querySelectorAll("button")].find((b) => b.textContent === "Play top card")!;
    act(() => play.click());
    expect(sockets[0]!.last()).toMatchObject({ type: "action", based_on: 1, action: { type: "play_card" } });
    expect(root.textContent).toContain("Sending…");
  });

  it("when the opponent is away past the grace period, offers to claim the win", async () => {
    localStorage.setItem("evr.token.Room4", "tok4");
    await mountAt("/r/Room4");
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
    localStorage.setItem("evr.token.Room5", "mine");
    await mountAt("/r/Room5/join#secret");
    expect(location.pathname).toBe("/r/Room5");
    expect(localStorage.getItem("evr.token.Room5")).toBe("mine");
  });

  it("shows a fatal refusal", async () => {
    localStorage.setItem("evr.token.Room3", "bad");
    await mountAt("/r/Room3");
    act(() => sockets[0]!.serverOpen());
    act(() => sockets[0]!.serverSend({ type: "error", code: "bad_token", message: "bad token", action_id: null }));
    expect(root.textContent).toContain("Your seat link is not valid for this room.");
  });
});
