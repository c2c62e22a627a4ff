// @vitest-environment happy-dom
// Seats in the browser: joining under a name, the creator's join code, a seat moved to this device
// with a one-time link, a seat's devices and the others signed out, the list of this device's rooms,
// names shown as text, and what the replay panel says before anyone agreed.
import { render } from "preact";
import { act } from "preact/test-utils";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { setLanguage } from "../src/i18n";
import { MemoryStorage } from "../src/net/env";
import type { SeatSummary } from "../src/net/protocol";
import { TokenStore } from "../src/net/tokens";
import { GameStore } from "../src/state/store";
import { Lobby } from "../src/ui/Lobby";
import { MoveSeat } from "../src/ui/MoveSeat";
import { ReplayPanel } from "../src/ui/ReplayPanel";
import { SettingsMenu } from "../src/ui/Settings";
import { Table } from "../src/ui/Table";
import { makeView, PRESENCE, ROOM, welcome } from "./fakes";

let root: HTMLElement;
let calls: { url: string; method: string; body: string | null; auth: string | null }[] = [];

/** Answers the API: `answers` maps "METHOD path" to a status and a body. */
function fakeApi(answers: Record<string, [number, unknown]>) {
  calls = [];
  globalThis.fetch = (async (
    url: string,
    init?: { method?: string; body?: string; headers?: Record<string, string> },
  ) => {
    const method = init?.method ?? "GET";
    calls.push({ url, method, body: init?.body ?? null, auth: init?.headers?.authorization ?? null });
    const [status, body] = answers[`${method} ${url}`] ?? [404, { code: "room_not_found", message: "none" }];
    return { ok: status < 300, status, json: async () => body } as unknown as Response;
  }) as typeof fetch;
}

const settle = () => act(async () => void (await new Promise((r) => setTimeout(r, 0))));

async function mountAt(path: string) {
  history.replaceState(null, "", path);
  const { App } = await import("../src/ui/App");
  const { navigate } = await import("../src/ui/router");
  navigate(path, true);
  act(() => render(<App />, root));
  await settle();
}

function type(el: Element | null, value: string) {
  const input = el as HTMLInputElement;
  act(() => {
    input.value = value;
    input.dispatchEvent(new Event("input", { bubbles: true }));
  });
}

async function submit(el: Element | null) {
  await act(async () => {
    (el as HTMLElement).closest("form")!.dispatchEvent(new Event("submit", { bubbles: true, cancelable: true }));
    await new Promise((r) => setTimeout(r, 0));
  });
}

beforeEach(() => {
  root = document.createElement("div");
  document.body.appendChild(root);
  setLanguage("en");
});
afterEach(() => {
  render(null, root);
  root.remove();
  localStorage.clear();
});

describe("joining with the invite link", () => {
  it("asks for a name (the device's remembered one), then takes the seat under it", async () => {
    localStorage.setItem("evr.prefs", JSON.stringify({ chatName: "Ana" }));
    const { loadPrefs } = await import("../src/state/prefs");
    loadPrefs(localStorage);
    fakeApi({ "POST /api/rooms/KJCHM97E/join": [200, { seat: "imperial", token: "guest" }] });
    await mountAt("/r/KJCHM97E/join#sec");
    const name = root.querySelector("input#join-name") as HTMLInputElement;
    expect(name.value).toBe("Ana");
    expect(calls).toEqual([]);
    type(name, "  Bea ");
    await submit(name);
    expect(calls.map((c) => [c.url, c.body])).toEqual([["/api/rooms/KJCHM97E/join", '{"invite":"sec","name":"Bea"}']]);
    expect(localStorage.getItem("evr.token.KJCHM97E")).toBe("guest");
    expect(location.pathname).toBe("/r/KJCHM97E");
    expect(JSON.parse(localStorage.getItem("evr.prefs")!).name).toBe("Bea");
  });
});

describe("a seat moved from another device", () => {
  it("takes the seat once with the link's secret, out of the address bar", async () => {
    fakeApi({ "POST /api/rooms/KJCHM97E/take": [200, { seat: "rebel", token: "phone" }] });
    await mountAt("/r/KJCHM97E/take#s3cret");
    expect(calls.map((c) => [c.url, c.body])).toEqual([["/api/rooms/KJCHM97E/take", '{"secret":"s3cret"}']]);
    expect(localStorage.getItem("evr.token.KJCHM97E")).toBe("phone");
    expect(location.pathname).toBe("/r/KJCHM97E");
    expect(location.hash).toBe("");
  });

  it("a used or expired link says so and offers to watch", async () => {
    fakeApi({ "POST /api/rooms/KJCHM97E/take": [410, { code: "transfer_link_invalid", message: "used" }] });
    await mountAt("/r/KJCHM97E/take#old");
    expect(root.textContent).toContain("This link was used already, has expired, or was replaced");
    expect(root.querySelector('a[href="/r/KJCHM97E/watch"]')).not.toBeNull();
    expect(localStorage.getItem("evr.token.KJCHM97E")).toBeNull();
  });
});

describe("a seat's devices", () => {
  const moved = 1_795_600_700;
  const two = {
    devices: [
      { this_device: false, added_at: null, connected: true },
      { this_device: true, added_at: moved, connected: true },
    ],
    link_expires_at: null,
  };
  const link = { url: "/r/KJCHM97E/take#abc", expires_at: Date.now() + 600_000 };

  async function openPanel() {
    localStorage.setItem("evr.token.KJCHM97E", "phone");
    act(() => render(<MoveSeat code="KJCHM97E" />, root));
    const menu = root.querySelector("details.move-seat") as HTMLDetailsElement;
    await act(async () => {
      menu.open = true;
      menu.dispatchEvent(new Event("toggle"));
      await new Promise((r) => setTimeout(r, 0));
    });
    await settle();
  }

  it("lists them as the server says, and signs the others out only after a warning", async () => {
    fakeApi({
      "POST /api/rooms/KJCHM97E/transfer": [201, link],
      "GET /api/rooms/KJCHM97E/devices": [200, two],
      "POST /api/rooms/KJCHM97E/devices/sign-out-others": [200, { devices: 1 }],
    });
    await openPanel();
    const items = () => [...root.querySelectorAll(".devices li")].map((li) => li.textContent);
    expect(items()).toEqual(["Another device · connected now", expect.stringMatching(/^This device, added .*2026/)]);
    expect(calls.every((c) => c.auth === "Bearer phone")).toBe(true);
    const button = (label: string) =>
      [...root.querySelectorAll(".devices button")].find((b) => b.textContent === label) as HTMLButtonElement;
    act(() => button("Sign out the other devices").click());
    expect(calls.some((c) => c.url.endsWith("/sign-out-others"))).toBe(false);
    expect(root.querySelector(".devices")?.textContent).toContain("stop working at once");
    fakeApi({
      "GET /api/rooms/KJCHM97E/devices": [
        200,
        { devices: [{ this_device: true, added_at: null, connected: true }], link_expires_at: null },
      ],
      "POST /api/rooms/KJCHM97E/devices/sign-out-others": [200, { devices: 1 }],
    });
    await act(async () => {
      button("Sign them out").click();
      await new Promise((r) => setTimeout(r, 0));
    });
    await settle();
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual([
      "POST /api/rooms/KJCHM97E/devices/sign-out-others",
      "GET /api/rooms/KJCHM97E/devices",
    ]);
    expect(items()).toEqual(["This device"]);
    expect(root.querySelector(".devices [role=status]")?.textContent).toBe("1 device was signed out.");
    expect(root.querySelector(".devices")?.textContent).toContain("Only this device plays this seat.");
    // the link shown was the seat's unused one: it is gone with the others
    expect(root.querySelector(".copyfield")).toBeNull();
  });

  it("a device alone is not offered to sign anyone out", async () => {
    fakeApi({
      "POST /api/rooms/KJCHM97E/transfer": [201, link],
      "GET /api/rooms/KJCHM97E/devices": [
        200,
        { devices: [{ this_device: true, added_at: null, connected: true }], link_expires_at: link.expires_at },
      ],
    });
    await openPanel();
    expect(root.querySelectorAll(".devices button")).toHaveLength(0);
    expect(root.querySelector(".copyfield input")).not.toBeNull();
  });
});

describe("the rooms this device holds", () => {
  const summary = (over: Partial<SeatSummary>): SeatSummary => ({
    code: "KJCHM97E",
    you: "rebel",
    names: ["Ana", "Ben"],
    opponent: { kind: "friend" },
    game_number: 1,
    state: "your_turn",
    round: 2,
    vp: [3, 1],
    clock: null,
    outcome: null,
    forfeit_winner: null,
    forfeit_reason: null,
    ...over,
  });

  it("keeps them newest first, finds seats kept before the list, and forgets one", () => {
    const storage = new MemoryStorage();
    storage.setItem("evr.token.OLDROOM1", "t0");
    const tokens = new TokenStore(storage);
    expect(tokens.rooms()).toEqual([{ code: "OLDROOM1", at: 0 }]);
    tokens.setToken("KJCHM97E", "t1", 100);
    tokens.setToken("KJCHM97F", "t2", 200);
    tokens.touch("KJCHM97E", 300);
    expect(tokens.rooms().map((r) => r.code)).toEqual(["KJCHM97E", "KJCHM97F", "OLDROOM1"]);
    tokens.forget("KJCHM97E");
    expect(tokens.rooms().map((r) => r.code)).toEqual(["KJCHM97F", "OLDROOM1"]);
    expect(tokens.getToken("KJCHM97E")).toBeNull();
  });

  it("lists each with its players and where its game stands, as its seat is told", async () => {
    localStorage.setItem(
      "evr.rooms",
      JSON.stringify([
        { code: "KJCHM97E", at: 2 },
        { code: "KJCHM97F", at: 1 },
      ]),
    );
    localStorage.setItem("evr.token.KJCHM97E", "t1");
    localStorage.setItem("evr.token.KJCHM97F", "t2");
    fakeApi({
      "GET /api/rooms/KJCHM97E/seat": [200, summary({})],
      "GET /api/rooms/KJCHM97F/seat": [
        200,
        summary({
          code: "KJCHM97F",
          state: "over",
          you: "imperial",
          names: [null, "Ana"],
          vp: [7, 4],
          outcome: { winner: "rebel", reason: "victory_points", vp: [7, 4] },
        }),
      ],
    });
    await mountAt("/");
    await settle();
    const rows = [...root.querySelectorAll(".room-row")].map((r) => r.textContent);
    expect(rows).toEqual([
      "KJCH-M97E\u2068Ana\u2069 (Rebel) vs \u2068Ben\u2069 (Imperial)Your turn",
      "KJCH-M97F\u2068Ana\u2069 (Imperial) vs RebelOver: you lost 4–7",
    ]);
    expect(calls.map((c) => c.auth)).toEqual(["Bearer t1", "Bearer t2"]);
    expect(root.querySelector('a[href="/r/KJCHM97E"]')).not.toBeNull();
  });
});

describe("names at the table", () => {
  it("are shown with their sides, as text: markup never runs", () => {
    const store = new GameStore();
    const markup = "<img src=x onerror=f()>";
    store.apply(welcome(3, makeView({ phase: "struggle", turn: "rebel" })));
    store.apply({ type: "room", room: { ...ROOM, names: [markup, "Ben"] } });
    store.apply({ type: "presence", presence: PRESENCE });
    act(() => render(<Table store={store} />, root));
    expect(root.textContent).toContain(`${markup} (Rebel)`);
    expect(root.textContent).toContain("Ben (Imperial)");
    expect(root.querySelector("img")).toBeNull();
  });

  it("the creator's lobby shows the join code beside the invite link, with the room code that goes with it", () => {
    localStorage.setItem("evr.invite.KJCHM97E", "/r/KJCHM97E/join#sec");
    localStorage.setItem("evr.joincode.KJCHM97E", "204518");
    const store = new GameStore();
    store.apply(welcome(0, makeView({ phase: "character_choice" })));
    act(() => render(<Lobby code="KJCHM97E" store={store} />, root));
    expect(root.querySelector(".join-code")?.textContent).toContain("204518");
    expect(root.querySelector(".join-code")?.textContent).toMatch(/^Room code: KJCH-M97E · Join code: 204518/);
  });
});

describe("revealing a replay", () => {
  it("before anyone agreed, both players read that both must agree", () => {
    act(() => render(<ReplayPanel room={ROOM} me="rebel" onReveal={() => {}} />, root));
    expect(root.textContent).toContain("Both players must agree; neither has yet.");
    expect(root.textContent).not.toContain("Waiting for");
  });

  it("against the computer, which agreed at the end, the player alone reveals", () => {
    const room = {
      ...ROOM,
      options: { ...ROOM.options, opponent: { kind: "computer" as const, level: "easy" as const } },
    };
    act(() =>
      render(<ReplayPanel room={{ ...room, reveal_agreed: [false, true] }} me="rebel" onReveal={() => {}} />, root),
    );
    expect(root.textContent).toContain("The computer agreed: the replay is revealed as soon as you agree too.");
    expect(root.querySelector("button.reveal-agree")).not.toBeNull();
  });
});

describe("the header's menus", () => {
  it("close on Escape and on a click outside", () => {
    const store = new GameStore();
    store.apply(welcome(0, makeView({ phase: "character_choice" })));
    act(() => render(<SettingsMenu store={store} />, root));
    const menu = root.querySelector("details.settings") as HTMLDetailsElement;
    act(() => {
      menu.open = true;
    });
    act(() => void dispatchEvent(new KeyboardEvent("keydown", { key: "Escape" })));
    expect(menu.open).toBe(false);
    act(() => {
      menu.open = true;
    });
    act(() => void document.body.dispatchEvent(new Event("pointerdown", { bubbles: true })));
    expect(menu.open).toBe(false);
  });
});
