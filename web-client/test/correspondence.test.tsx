// @vitest-environment happy-dom
// Rooms played over days: the time left and the deadline as people read them (in the three
// languages, in the viewer's time zone), the deadlines at the table, the create form's choice, the
// order of "your rooms" (your turn over days first, the nearest deadline first) and the email
// reminders (shown only when the server sends mail; the remembered address never sent unasked).
import { render } from "preact";
import { act } from "preact/test-utils";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { setLanguage } from "../src/i18n";
import { deadlineText, timeAmount, timeLeft } from "../src/i18n/time";
import type { ClockView, SeatSummary } from "../src/net/protocol";
import { type ListedRoom, orderRooms, yourTimeLeft } from "../src/state/rooms";
import { GameStore } from "../src/state/store";
import { Clocks, deadlineLow } from "../src/ui/Clocks";
import { Landing } from "../src/ui/Landing";
import { mountPoint, until } from "./dom";
import { makeView, summary, welcome } from "./fakes";

const root = mountPoint();
const H = 3_600_000;
const DAY = 24 * H;

afterEach(() => {
  setLanguage("en");
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe("time over days", () => {
  it("says the time left in its two largest units, rounded down, in the three languages", () => {
    expect(timeLeft("en", 2 * DAY + 3 * H + 59 * 60_000)).toBe("2 days 3 h left");
    expect(timeLeft("en", DAY + 30 * 60_000)).toBe("1 day left");
    expect(timeLeft("en", 5 * H + 20 * 60_000 + 59_999)).toBe("5 h 20 min left");
    expect(timeLeft("en", 12 * 60_000 + 5_000)).toBe("12 min left");
    expect(timeLeft("en", 45_999)).toBe("45 s left");
    expect(timeLeft("en", -5)).toBe("0 s left");
    expect(timeLeft("zh-Hant", 2 * DAY + 3 * H)).toBe("剩 2 天 3 小時");
    expect(timeLeft("ja", 2 * DAY + 3 * H)).toBe("残り2日3時間");
    expect(timeAmount("ja", 7 * DAY)).toBe("7日");
  });

  it("gives the deadline's date and time in the viewer's time zone, with the zone's name", () => {
    // 05:05 UTC on Friday 27 November 2026
    const at = Date.UTC(2026, 10, 27, 5, 5);
    expect(deadlineText("en", at, "Asia/Tokyo")).toBe("until 27 Nov, 14:05 GMT+9");
    expect(deadlineText("en", at, "America/New_York")).toBe("until 27 Nov, 00:05 GMT-5");
    expect(deadlineText("ja", at, "Asia/Tokyo")).toContain("14:05");
    expect(deadlineText("ja", at, "Asia/Tokyo")).toContain("11月27日");
    expect(deadlineText("zh-Hant", at, "Asia/Taipei")).toContain("13:05");
  });

  it("is low in the last fifth of a decision's days", () => {
    expect(deadlineLow(0.2 * 3 * DAY - 1, 3)).toBe(true);
    expect(deadlineLow(0.2 * 3 * DAY, 3)).toBe(false);
    expect(deadlineLow(5 * H, 1)).toBe(false);
    expect(deadlineLow(4 * H, 1)).toBe(true);
    expect(deadlineLow(4 * H, 1, H * 10)).toBe(false);
    expect(deadlineLow(H, 1, H * 10)).toBe(true);
  });
});

function corrStore(clock: ClockView, now: { t: number }) {
  const store = new GameStore(() => now.t);
  const w = welcome(3, makeView({ phase: "struggle", turn: "imperial" }));
  if (w.type === "welcome") w.clock = clock;
  store.apply(w);
  return store;
}

describe("deadlines at the table", () => {
  it("show the side that owes a decision filled and marked, its time left and deadline; the other owes nothing", () => {
    vi.useFakeTimers();
    try {
      const start = Date.UTC(2026, 10, 25, 12, 0);
      vi.setSystemTime(start);
      const now = { t: start };
      const deadline = start + 2 * DAY + 3 * H + 10 * 60_000;
      const store = corrStore(
        {
          remaining_ms: [3 * DAY, deadline - start],
          running: [false, true],
          deadline_unix_ms: [null, deadline],
          days_per_decision: 3,
        },
        now,
      );
      act(() => render(<Clocks store={store} />, root()));
      const [rebel, imperial] = [...root().querySelectorAll(".deadlines .clock")];
      expect(root().querySelector(".deadlines")?.getAttribute("aria-label")).toBe("Deadlines");
      expect(rebel!.className).not.toContain("running");
      expect(rebel!.textContent).toBe("Rebel (You) nothing due");
      expect(imperial!.className).toContain("running");
      expect(imperial!.querySelector(".run-mark")?.textContent).toBe("▶");
      expect(imperial!.querySelector(".time")?.textContent).toBe("2 days 3 h left");
      expect(imperial!.querySelector(".run-text")?.textContent).toBe(" (to move)");
      expect(imperial!.querySelector("time")?.getAttribute("datetime")).toBe(new Date(deadline).toISOString());
      expect(imperial!.querySelector("time")?.textContent).toMatch(/^until 27 Nov, \d\d:\d\d /);
      expect(imperial!.className).not.toContain("low");
      // the page counts down from the server's word, and turns red in the last fifth (0.6 days)
      now.t = start + 2 * DAY;
      act(() => void vi.advanceTimersByTime(2 * DAY));
      expect(imperial!.querySelector(".time")?.textContent).toBe("3 h 10 min left");
      expect(imperial!.className).toContain("low");
      // in 日本語
      act(() => {
        setLanguage("ja");
      });
      expect(root().querySelector(".deadlines .clock.running .time")?.textContent).toBe("残り3時間10分");
    } finally {
      vi.useRealTimers();
    }
  });

  it("a live room keeps its clocks", () => {
    vi.useFakeTimers();
    try {
      vi.setSystemTime(5_000_000);
      const store = corrStore(
        {
          remaining_ms: [125_000, 60_000],
          running: [false, true],
          deadline_unix_ms: [null, null],
          days_per_decision: null,
        },
        { t: 5_000_000 },
      );
      act(() => render(<Clocks store={store} />, root()));
      expect(root().querySelector(".deadlines")).toBeNull();
      expect([...root().querySelectorAll(".clock .time")].map((e) => e.textContent)).toEqual(["2:05", "1:00"]);
      expect(root().querySelector(".clock.running .run-text")?.textContent).toBe(" (running)");
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("the create form", () => {
  it("offers 1, 2, 3 or 7 days per move, says what it means, and sends the days", async () => {
    const bodies: unknown[] = [];
    vi.stubGlobal("fetch", async (url: string, init?: { body?: string }) => {
      // the landing page's account entry asks who is signed in (ui/account/): not the form's
      if (url !== "/api/session") bodies.push(JSON.parse(init?.body ?? "null"));
      return new Response(JSON.stringify({ code: "bad_message", message: "stop here" }), { status: 400 });
    });
    act(() => render(<Landing />, root()));
    expect(root().querySelector("input[name=days]")).toBeNull();
    act(() => root().querySelector<HTMLInputElement>('input[name=clock][value="days"]')!.click());
    const labels = [...root().querySelectorAll("fieldset.f-days label")].map((l) => l.textContent);
    expect(labels).toEqual(["1 day", "2 days", "3 days", "7 days"]);
    expect(root().querySelector("fieldset.f-days")?.getAttribute("aria-describedby")).toBe("days-explain");
    expect(root().querySelector("fieldset.f-days legend")?.textContent).toBe("Time for each move");
    expect(root().querySelector("#days-explain")?.textContent).toContain("A missed deadline loses the game on time.");
    const submit = async () => {
      await act(async () => {
        root().querySelector<HTMLFormElement>("form.panel")!.requestSubmit();
        await new Promise((r) => setTimeout(r, 10));
      });
    };
    await submit();
    act(() => root().querySelector<HTMLInputElement>('input[name=days][value="7"]')!.click());
    await submit();
    expect(bodies.map((b) => (b as { clock?: unknown }).clock)).toEqual([
      { days_per_decision: 1 },
      { days_per_decision: 7 },
    ]);
  });
});

const clockOf = (running: [boolean, boolean], remaining: [number, number]): ClockView => ({
  remaining_ms: remaining,
  running,
  deadline_unix_ms: [running[0] ? 1 : null, running[1] ? 1 : null],
  days_per_decision: 2,
});

describe("your rooms", () => {
  const at = 1_000;
  const row = (code: string, over: Partial<SeatSummary> | null): ListedRoom => ({
    code,
    summary: over ? summary(code, over) : null,
    at,
  });

  it("put your turn over days first, the least time left first; the rest keep their order", () => {
    const rows = [
      row("LIVEMINE", { state: "your_turn" }),
      row("THEIRS01", { state: "their_turn", clock: clockOf([false, true], [DAY, DAY]) }),
      row("LOADING1", null),
      row("MINELATE", { state: "your_turn", clock: clockOf([true, false], [2 * DAY, DAY]) }),
      row("OVER0001", { state: "over" }),
      row("MINESOON", { state: "your_turn", you: "imperial", clock: clockOf([false, true], [DAY, 3 * H]) }),
    ];
    expect(orderRooms(rows, at).map((r) => r.code)).toEqual([
      "MINESOON",
      "MINELATE",
      "LIVEMINE",
      "THEIRS01",
      "LOADING1",
      "OVER0001",
    ]);
    // time left counts down from the answer, never below zero
    expect(yourTimeLeft(rows[5]!, at + H)).toBe(2 * H);
    expect(yourTimeLeft(rows[5]!, at + DAY)).toBe(0);
    expect(yourTimeLeft(rows[1]!, at)).toBeNull();
    expect(yourTimeLeft(rows[0]!, at)).toBeNull();
  });

  it("show the time left of your turn over days in the list, first", async () => {
    localStorage.setItem(
      "evr.rooms",
      JSON.stringify([
        { code: "NEWROOM1", at: 3 },
        { code: "DAYROOM1", at: 1 },
      ]),
    );
    localStorage.setItem("evr.token.NEWROOM1", "t1");
    localStorage.setItem("evr.token.DAYROOM1", "t2");
    const answers: Record<string, SeatSummary> = {
      "/api/rooms/NEWROOM1/seat": summary("NEWROOM1", { state: "their_turn" }),
      "/api/rooms/DAYROOM1/seat": summary("DAYROOM1", {
        state: "your_turn",
        clock: clockOf([true, false], [DAY + 4 * H + 60_000, 2 * DAY]),
      }),
    };
    vi.stubGlobal("fetch", async (url: string) => new Response(JSON.stringify(answers[url]), { status: 200 }));
    const { MyRooms } = await import("../src/ui/MyRooms");
    act(() => render(<MyRooms />, root()));
    const rows = () => [...root().querySelectorAll(".room-row")].map((r) => r.textContent ?? "");
    await until(() => rows().length === 2 && !rows().some((r) => r.includes("Loading")));
    expect(rows()).toEqual([
      // each name isolated from the text around it (U+2068 … U+2069)
      "DAYR-OOM1\u2068Ana\u2069 (Rebel) vs \u2068Ben\u2069 (Imperial)Your turn · 1 day 4 h left",
      "NEWR-OOM1\u2068Ana\u2069 (Rebel) vs \u2068Ben\u2069 (Imperial)Their turn",
    ]);
  });
});

describe("email reminders", () => {
  const CODE = "DAYROOM1";
  let calls: { url: string; method: string; body: string | null; auth: string | null; credentials: string | null }[];
  beforeEach(() => {
    calls = [];
    vi.resetModules();
  });

  /** The API: `GET /api/mail` says `enabled`; the seat's address as the server keeps it; `account`:
   *  the signed-in account's address (none: not signed in, `401`), whose `PUT` with the session cookie
   *  is `already_confirmed` when confirmed. */
  function server(enabled: boolean, account?: { email: string; email_confirmed: boolean }) {
    let kept: { hint: string; confirmed: boolean } | null = null;
    vi.stubGlobal(
      "fetch",
      async (
        url: string,
        init?: { method?: string; body?: string; headers?: Record<string, string>; credentials?: string },
      ) => {
        const method = init?.method ?? "GET";
        calls.push({
          url,
          method,
          body: init?.body ?? null,
          auth: init?.headers?.authorization ?? null,
          credentials: init?.credentials ?? null,
        });
        const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status });
        if (url === "/api/mail") return json(200, { enabled });
        if (url === "/api/account") {
          if (!account) return json(401, { code: "not_signed_in", message: "You are not signed in." });
          return json(200, { username: "Ana", created_at_ms: 0, ...account, passkeys: [], sessions: [] });
        }
        if (url !== `/api/rooms/${CODE}/reminders`) return json(404, { code: "not_found", message: "no" });
        if (method === "PUT") {
          const email = JSON.parse(init!.body!).email as string;
          const own = init?.credentials === "same-origin" && account?.email_confirmed && email === account.email;
          kept = { hint: "a…@example.org", confirmed: !!own };
          return json(202, { status: own ? "already_confirmed" : "confirmation_sent" });
        }
        if (method === "DELETE") {
          kept = null;
          return new Response(null, { status: 204 });
        }
        return json(200, { email_hint: kept?.hint ?? null, confirmed: kept?.confirmed ?? false });
      },
    );
  }

  /** A fresh page (the modules anew: "enabled" is asked once a page) in language `l`. */
  async function mount(l: "en" | "ja" = "en") {
    const { Reminders } = await import("../src/ui/Reminders");
    (await import("../src/i18n")).setLanguage(l);
    // the panel's texts, which a page fetches when it first shows the panel (the modules are anew)
    await (await import("../src/i18n/reminders")).loadReminders(l);
    const { loadPrefs } = await import("../src/state/prefs");
    loadPrefs(localStorage);
    await act(async () => {
      render(<Reminders code={CODE} />, root());
      await new Promise((r) => setTimeout(r, 10));
    });
  }
  const settle = () => act(async () => void (await new Promise((r) => setTimeout(r, 10))));

  it("are not offered when the server sends no mail", async () => {
    localStorage.setItem(`evr.token.${CODE}`, "seat-token");
    server(false);
    await mount();
    expect(root().querySelector(".reminders")).toBeNull();
    expect(calls.map((c) => c.url)).toEqual(["/api/mail"]);
  });

  it("fill in the address this device remembers, send it only when asked, then say where mail goes and stop", async () => {
    localStorage.setItem(`evr.token.${CODE}`, "seat-token");
    localStorage.setItem("evr.prefs", JSON.stringify({ email: "ana@example.org" }));
    server(true);
    await mount("ja");
    await settle();
    const input = root().querySelector<HTMLInputElement>(".reminders input[type=email]")!;
    expect(input.value).toBe("ana@example.org");
    // shown, but nothing sent yet
    expect(calls.filter((c) => c.method !== "GET")).toEqual([]);
    await act(async () => {
      root().querySelector<HTMLFormElement>(".remind-form")!.requestSubmit();
    });
    await settle();
    const put = calls.find((c) => c.method === "PUT")!;
    expect(put.auth).toBe("Bearer seat-token");
    expect(JSON.parse(put.body!)).toEqual({ email: "ana@example.org", language: "ja" });
    expect(root().querySelector(".remind-state.pending")?.textContent).toBe(
      "a…@example.org に送ったメールを確かめてください。そのリンクを開くとお知らせが始まります。",
    );
    expect(JSON.parse(localStorage.getItem("evr.prefs")!).email).toBe("ana@example.org");
    await act(async () => root().querySelector<HTMLButtonElement>(".remind-stop")!.click());
    await settle();
    expect(calls.filter((c) => c.method === "DELETE").map((c) => c.auth)).toEqual(["Bearer seat-token"]);
    expect(root().querySelector(".remind-state.off")?.textContent).toBe("このルームのお知らせは止まりました。");
    expect(root().querySelector(".reminders input[type=email]")).not.toBeNull();
    // not signed in: the device's address stays, nothing said of an account
    expect(root().querySelector(".remind-account")).toBeNull();
  });

  it("signed in with a confirmed address, fill in the account's address: no confirmation needed", async () => {
    localStorage.setItem(`evr.token.${CODE}`, "seat-token");
    localStorage.setItem("evr.prefs", JSON.stringify({ email: "old@example.org" }));
    server(true, { email: "ana@example.org", email_confirmed: true });
    await mount();
    await settle();
    // (the account is asked once the page knows the server sends mail: one more round)
    await settle();
    const account = calls.find((c) => c.url === "/api/account")!;
    expect(account.credentials).toBe("same-origin");
    const input = root().querySelector<HTMLInputElement>(".reminders input[type=email]")!;
    expect(input.value).toBe("ana@example.org");
    const note = root().querySelector(".remind-account")!;
    expect(note.textContent).toBe("Your account's address: no confirmation needed.");
    expect(input.getAttribute("aria-describedby")).toBe(note.id);
    // another address typed: the note goes (that one needs its confirmation)
    await act(async () => {
      input.value = "other@example.org";
      input.dispatchEvent(new Event("input", { bubbles: true }));
    });
    expect(root().querySelector(".remind-account")).toBeNull();
    await act(async () => {
      input.value = "Ana@Example.org";
      input.dispatchEvent(new Event("input", { bubbles: true }));
    });
    expect(root().querySelector(".remind-account")).not.toBeNull();
    await act(async () => {
      input.value = "ana@example.org";
      input.dispatchEvent(new Event("input", { bubbles: true }));
    });
    await act(async () => {
      root().querySelector<HTMLFormElement>(".remind-form")!.requestSubmit();
    });
    await settle();
    const put = calls.find((c) => c.method === "PUT")!;
    expect(put.credentials).toBe("same-origin");
    expect(put.auth).toBe("Bearer seat-token");
    expect(root().querySelector(".remind-state.on")?.textContent).toBe("Reminders for this room go to a…@example.org.");
  });

  it("signed in with an address not confirmed yet, keep the device's address", async () => {
    localStorage.setItem(`evr.token.${CODE}`, "seat-token");
    localStorage.setItem("evr.prefs", JSON.stringify({ email: "old@example.org" }));
    server(true, { email: "ana@example.org", email_confirmed: false });
    await mount("ja");
    await settle();
    expect(root().querySelector<HTMLInputElement>(".reminders input[type=email]")!.value).toBe("old@example.org");
    expect(root().querySelector(".remind-account")).toBeNull();
  });
});
