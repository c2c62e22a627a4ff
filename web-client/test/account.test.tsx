// @vitest-environment happy-dom
// Accounts in the browser (proto/PROTOCOL.md, *Accounts*): registering calls the routes in order with
// their JSON bodies and then keeps this device's seats; signing in likewise; a passkey ceremony's
// options as webauthn-rs sends them (`{"publicKey": {...}}`) reach the browser's parser; a mailed
// link's page posts its secret only when its button is pressed and then drops it from the address; the
// account's rooms join this device's in the list (your turn first, no room twice) and one this device
// does not hold is opened by taking a token of its own; deleting refuses a wrong username before any
// request.
import { render } from "preact";
import { act } from "preact/test-utils";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { accountIn } from "../src/i18n/account";
import { AccountApi } from "../src/net/account";
import { MemoryStorage } from "../src/net/env";
import type { SeatSummary } from "../src/net/protocol";
import { TokenStore } from "../src/net/tokens";
import { accountRooms, type ListedRoom, orderRooms, withAccountRooms } from "../src/state/rooms";
import { Slot } from "../src/ui/account/Account";
import { DeleteAccount } from "../src/ui/account/Data";
import { keepDeviceSeats, register, signIn } from "../src/ui/account/flows";
import { LinkPage } from "../src/ui/account/LinkPage";
import { askAgain, setAuthenticator } from "../src/ui/account/shared";
import {
  type Authenticator,
  creationOptions,
  credentialJson,
  publicKeyOf,
  requestOptions,
} from "../src/ui/account/webauthn";
import { mountPoint, until } from "./dom";
import { summary } from "./fakes";

type Call = { url: string; method: string; body: unknown; type: string | null; credentials: string | undefined };

/** The account routes as a server answers them: `answers` maps "METHOD path" to status and body. */
function server(answers: Record<string, [number, unknown]>) {
  const calls: Call[] = [];
  const fetchFn = async (
    url: string,
    init?: { method?: string; body?: string; headers?: Record<string, string>; credentials?: string },
  ) => {
    const method = init?.method ?? "GET";
    calls.push({
      url,
      method,
      body: init?.body ? JSON.parse(init.body) : null,
      type: init?.headers?.["content-type"] ?? null,
      credentials: init?.credentials,
    });
    const [status, body] = answers[`${method} ${url}`] ?? [404, { code: "not_found", message: "no" }];
    return new Response(status === 204 ? null : JSON.stringify(body), { status });
  };
  return { calls, fetchFn };
}

const OPTIONS = { publicKey: { challenge: "AQID", rp: { id: "localhost", name: "EvR" } } };
const CREDENTIAL = { id: "cred", type: "public-key", response: { clientDataJSON: "e30" } };

/** An authenticator that answers at once, recording what it was asked. */
function fakeAuthenticator() {
  const asked: { kind: string; options: unknown; conditional: boolean }[] = [];
  const auth: Authenticator = {
    create: async (options) => {
      asked.push({ kind: "create", options, conditional: false });
      return CREDENTIAL;
    },
    get: async (options, signal) => {
      asked.push({ kind: "get", options, conditional: signal !== undefined });
      return CREDENTIAL;
    },
    autofill: async () => false,
  };
  return { asked, auth };
}

function deviceWith(codes: string[]): TokenStore {
  const tokens = new TokenStore(new MemoryStorage());
  codes.forEach((c, i) => {
    tokens.setToken(c, `token-${c}`, i);
  });
  return tokens;
}

describe("passkey ceremonies", () => {
  it("registering: begin with the username, the browser's answer to finish, then this device's seats are kept", async () => {
    const { calls, fetchFn } = server({
      "POST /api/account/register/begin": [200, { ceremony: "c1", options: OPTIONS }],
      "POST /api/account/register/finish": [201, { username: "Ana" }],
      "POST /api/account/seats": [
        200,
        {
          seats: [
            { code: "ROOMAAAA", outcome: "kept" },
            { code: "ROOMBBBB", outcome: "already" },
            { code: "ROOMCCCC", outcome: "other_account" },
          ],
        },
      ],
    });
    const { asked, auth } = fakeAuthenticator();
    const tokens = deviceWith(["ROOMCCCC", "ROOMBBBB", "ROOMAAAA"]);
    const done = await register(new AccountApi(fetchFn), auth, tokens, "Ana");
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual([
      "POST /api/account/register/begin",
      "POST /api/account/register/finish",
      "POST /api/account/seats",
    ]);
    expect(calls.map((c) => c.body)).toEqual([
      { username: "Ana" },
      { ceremony: "c1", credential: CREDENTIAL },
      {
        seats: [
          { code: "ROOMAAAA", token: "token-ROOMAAAA" },
          { code: "ROOMBBBB", token: "token-ROOMBBBB" },
          { code: "ROOMCCCC", token: "token-ROOMCCCC" },
        ],
      },
    ]);
    // JSON, and the session cookie goes along by itself (never read here)
    expect(calls.every((c) => c.type === "application/json" && c.credentials === "same-origin")).toBe(true);
    expect(asked).toEqual([{ kind: "create", options: OPTIONS, conditional: false }]);
    expect(done).toEqual({ username: "Ana", kept: { kept: 2, other: 1 } });
  });

  it("signing in: begin, the browser's passkey, finish, then this device's seats are kept", async () => {
    const { calls, fetchFn } = server({
      "POST /api/account/sign-in/begin": [200, { ceremony: "c2", options: OPTIONS }],
      "POST /api/account/sign-in/finish": [200, { username: "Ana" }],
      "POST /api/account/seats": [200, { seats: [{ code: "ROOMAAAA", outcome: "kept" }] }],
    });
    const { asked, auth } = fakeAuthenticator();
    const done = await signIn(new AccountApi(fetchFn), auth, deviceWith(["ROOMAAAA"]));
    expect(calls.map((c) => [`${c.method} ${c.url}`, c.body])).toEqual([
      ["POST /api/account/sign-in/begin", {}],
      ["POST /api/account/sign-in/finish", { ceremony: "c2", credential: CREDENTIAL }],
      ["POST /api/account/seats", { seats: [{ code: "ROOMAAAA", token: "token-ROOMAAAA" }] }],
    ]);
    expect(asked).toEqual([{ kind: "get", options: OPTIONS, conditional: false }]);
    expect(done.kept.kept).toBe(1);
  });

  it("a refusal carries the server's code", async () => {
    const { fetchFn } = server({
      "POST /api/account/register/begin": [409, { code: "username_taken", message: "taken" }],
    });
    const { asked, auth } = fakeAuthenticator();
    await expect(register(new AccountApi(fetchFn), auth, deviceWith([]), "Ana")).rejects.toMatchObject({
      status: 409,
      code: "username_taken",
    });
    expect(asked).toEqual([]);
  });

  it("keeps at most 50 seats a request", async () => {
    const { calls, fetchFn } = server({ "POST /api/account/seats": [200, { seats: [] }] });
    const codes = Array.from({ length: 120 }, (_, i) => `ROOM${String(i).padStart(4, "0")}`);
    const tokens = {
      rooms: () => codes.map((code) => ({ code, at: 0 })),
      getToken: (code: string) => `token-${code}`,
    } as unknown as TokenStore;
    await keepDeviceSeats(new AccountApi(fetchFn), tokens);
    expect(calls.map((c) => (c.body as { seats: unknown[] }).seats.length)).toEqual([50, 50, 20]);
  });
});

describe("the browser's side of a ceremony", () => {
  const wrapped = {
    publicKey: {
      challenge: "AQID",
      user: { id: "BAU", name: "Ana", displayName: "Ana" },
      excludeCredentials: [{ type: "public-key", id: "Bgc" }],
      allowCredentials: [{ type: "public-key", id: "-_8" }],
    },
  };
  afterEach(() => vi.unstubAllGlobals());

  it("takes webauthn-rs's `{publicKey}` and the bare object alike", () => {
    expect(publicKeyOf(wrapped)).toBe(wrapped.publicKey);
    expect(publicKeyOf(wrapped.publicKey)).toBe(wrapped.publicKey);
  });

  it("hands the inner object to the browser's JSON parsers", () => {
    const parseCreationOptionsFromJSON = vi.fn(() => ({ made: true }));
    const parseRequestOptionsFromJSON = vi.fn(() => ({ asked: true }));
    vi.stubGlobal(
      "PublicKeyCredential",
      Object.assign(() => {}, { parseCreationOptionsFromJSON, parseRequestOptionsFromJSON }),
    );
    expect(creationOptions(wrapped)).toEqual({ made: true });
    expect(requestOptions(wrapped)).toEqual({ asked: true });
    expect(parseCreationOptionsFromJSON).toHaveBeenCalledWith(wrapped.publicKey);
    expect(parseRequestOptionsFromJSON).toHaveBeenCalledWith(wrapped.publicKey);
  });

  it("without them, turns the base64url fields into bytes, and an answer into JSON", () => {
    vi.stubGlobal("PublicKeyCredential", undefined);
    const made = creationOptions(wrapped) as unknown as {
      challenge: Uint8Array;
      user: { id: Uint8Array; name: string };
      excludeCredentials: { id: Uint8Array }[];
    };
    expect([...made.challenge]).toEqual([1, 2, 3]);
    expect([...made.user.id]).toEqual([4, 5]);
    expect(made.user.name).toBe("Ana");
    expect([...made.excludeCredentials[0]!.id]).toEqual([6, 7]);
    const asked = requestOptions(wrapped) as unknown as { allowCredentials: { id: Uint8Array }[] };
    expect([...asked.allowCredentials[0]!.id]).toEqual([251, 255]);
    const bytes = (b: number[]) => new Uint8Array(b).buffer;
    const answer = credentialJson({
      id: "-_8",
      type: "public-key",
      rawId: bytes([251, 255]),
      authenticatorAttachment: "platform",
      getClientExtensionResults: () => ({}),
      response: { clientDataJSON: bytes([123, 125]), attestationObject: bytes([1]), getTransports: () => ["internal"] },
    } as unknown as Credential) as { rawId: string; response: Record<string, unknown> };
    expect(answer.rawId).toBe("-_8");
    expect(answer.response.clientDataJSON).toBe("e30");
    expect(answer.response.attestationObject).toBe("AQ");
    expect(answer.response.transports).toEqual(["internal"]);
  });
});

const DAY = 86_400_000;
const dueIn = (left: number): Partial<SeatSummary> => ({
  state: "your_turn",
  clock: { remaining_ms: [left, DAY], running: [true, false], deadline_unix_ms: [1, null], days_per_decision: 1 },
});

describe("your games on every device", () => {
  const root = mountPoint();
  beforeEach(() => localStorage.clear());
  afterEach(() => {
    accountRooms.value = [];
    vi.unstubAllGlobals();
  });

  it("the list merges the account's rooms with this device's: your turn first, no room twice", () => {
    const row = (code: string, over: Partial<SeatSummary>): ListedRoom => ({
      code,
      summary: summary(code, over),
      at: 0,
    });
    const device = [row("DEVICE01", {}), row("BOTHROOM", dueIn(5 * DAY)), row("DEVICE02", dueIn(2 * DAY))];
    const account = [row("BOTHROOM", {}), row("ACCOUNT1", dueIn(DAY)), row("ACCOUNT2", {})];
    expect(orderRooms(withAccountRooms(device, account), 0).map((r) => r.code)).toEqual([
      "ACCOUNT1",
      "DEVICE02",
      "BOTHROOM",
      "DEVICE01",
      "ACCOUNT2",
    ]);
  });

  it("signed in, the landing page lists the account's rooms; one not on this device opens with a token of its own", async () => {
    localStorage.setItem("evr.token.DEVICE01", "t1");
    localStorage.setItem("evr.rooms", JSON.stringify([{ code: "DEVICE01", at: 1 }]));
    const { calls, fetchFn } = server({
      "GET /api/session": [200, { account: { username: "Ana" }, passkey_rp_id: "localhost", email_sign_in: false }],
      "GET /api/account/rooms": [
        200,
        {
          rooms: [
            { code: "ACCOUNT1", kept_at_ms: 2 },
            { code: "DEVICE01", kept_at_ms: 1 },
          ],
        },
      ],
      "GET /api/rooms/DEVICE01/seat": [200, summary("DEVICE01", {})],
      "GET /api/rooms/ACCOUNT1/account-seat": [200, summary("ACCOUNT1", dueIn(DAY))],
      "POST /api/rooms/ACCOUNT1/account-seat": [200, { seat: "rebel", token: "new-token" }],
    });
    vi.stubGlobal("fetch", fetchFn);
    askAgain();
    const { App } = await import("../src/ui/App");
    const { navigate } = await import("../src/ui/router");
    navigate("/", true);
    act(() => render(<App />, root()));
    await until(() => root().querySelectorAll(".room-row .room-players").length === 2);
    expect(root().textContent).toContain(accountIn("en")!.signedInAs("Ana"));
    expect(root().querySelector("#my-rooms-h")!.textContent).toBe(accountIn("en")!.listTitle);
    const rows = [...root().querySelectorAll(".room-row")];
    expect(rows.map((r) => r.querySelector(".room-link")!.textContent)).toEqual(["ACCO-UNT1", "DEVI-CE01"]);
    // the device's own room is kept already: nothing to keep
    expect(calls.some((c) => c.url === "/api/account/seats")).toBe(false);
    await act(async () => {
      (rows[0]!.querySelector(".room-link") as HTMLElement).click();
      await new Promise((r) => setTimeout(r, 10));
    });
    expect(calls.filter((c) => c.method === "POST").map((c) => [c.url, c.body])).toEqual([
      ["/api/rooms/ACCOUNT1/account-seat", {}],
    ]);
    expect(localStorage.getItem("evr.token.ACCOUNT1")).toBe("new-token");
    expect(location.pathname).toBe("/r/ACCOUNT1");
    history.replaceState(null, "", "/");
  });
});

describe("the account's screens", () => {
  const root = mountPoint();
  afterEach(() => vi.unstubAllGlobals());
  const text = () => accountIn("en")!;
  const settle = () => act(async () => void (await new Promise((r) => setTimeout(r, 10))));

  it("a mailed sign-in link posts its secret only when its button is pressed, then drops it from the address", async () => {
    const { calls, fetchFn } = server({
      "POST /api/account/sign-in/link": [200, { username: "Ana" }],
      "POST /api/account/seats": [200, { seats: [] }],
    });
    vi.stubGlobal("fetch", fetchFn);
    history.replaceState(null, "", "/#/account/sign-in/SECRET1");
    act(() => render(<LinkPage text={text()} kind="sign-in" secret="SECRET1" />, root()));
    await settle();
    expect(calls).toEqual([]);
    expect(location.hash).toBe("#/account/sign-in/SECRET1");
    await act(async () => {
      root().querySelector<HTMLButtonElement>("button.primary")!.click();
      await new Promise((r) => setTimeout(r, 10));
    });
    expect(calls[0]).toMatchObject({ method: "POST", url: "/api/account/sign-in/link", body: { secret: "SECRET1" } });
    expect(location.hash).toBe("#/account");
    expect(root().textContent).toContain(text().signedInAs("Ana"));
  });

  it("a mailed confirmation link likewise", async () => {
    const { calls, fetchFn } = server({ "POST /api/account/email/confirm": [204, null] });
    vi.stubGlobal("fetch", fetchFn);
    history.replaceState(null, "", "/#/account/confirm/SECRET2");
    act(() => render(<LinkPage text={text()} kind="confirm" secret="SECRET2" />, root()));
    await settle();
    expect(calls).toEqual([]);
    await act(async () => {
      root().querySelector<HTMLButtonElement>("button.primary")!.click();
      await new Promise((r) => setTimeout(r, 10));
    });
    expect(calls.map((c) => [c.url, c.body])).toEqual([["/api/account/email/confirm", { secret: "SECRET2" }]]);
    expect(location.hash).toBe("#/account");
    expect(root().textContent).toContain(text().confirmed);
  });

  it("deleting refuses a wrong username before any request", async () => {
    const { calls, fetchFn } = server({ "POST /api/account/delete": [204, null] });
    vi.stubGlobal("fetch", fetchFn);
    act(() => render(<DeleteAccount text={text()} username="Ana" />, root()));
    const input = root().querySelector<HTMLInputElement>("#account-delete")!;
    const submit = async (value: string) => {
      act(() => {
        input.value = value;
        input.dispatchEvent(new Event("input", { bubbles: true }));
      });
      await act(async () => {
        root()
          .querySelector("form")!
          .dispatchEvent(new Event("submit", { bubbles: true, cancelable: true }));
        await new Promise((r) => setTimeout(r, 10));
      });
    };
    await submit("Anna");
    expect(calls).toEqual([]);
    expect(root().querySelector("[role=alert]")!.textContent).toBe(text().errors.confirmation_mismatch);
    await submit("Ana");
    expect(calls.map((c) => [c.method, c.url, c.body])).toEqual([["POST", "/api/account/delete", { username: "Ana" }]]);
    history.replaceState(null, "", "/");
  });

  it("a sign-in link by mail: the address and the page's language, then a neutral answer", async () => {
    const { calls, fetchFn } = server({
      "GET /api/session": [200, { account: null, passkey_rp_id: "localhost", email_sign_in: true }],
      "POST /api/account/sign-in/email": [202, null],
    });
    vi.stubGlobal("fetch", fetchFn);
    askAgain();
    act(() => render(<Slot at="page" sub="" />, root()));
    await until(() => root().querySelector("#account-link-email") !== null);
    const input = root().querySelector<HTMLInputElement>("#account-link-email")!;
    act(() => {
      input.value = " ana@example.org ";
      input.dispatchEvent(new Event("input", { bubbles: true }));
    });
    await act(async () => {
      input.form!.dispatchEvent(new Event("submit", { bubbles: true, cancelable: true }));
      await new Promise((r) => setTimeout(r, 10));
    });
    expect(calls.filter((c) => c.method === "POST").map((c) => [c.url, c.body])).toEqual([
      ["/api/account/sign-in/email", { email: "ana@example.org", language: "en" }],
    ]);
    expect(root().querySelector("[role=status]")!.textContent).toBe(text().emailSent);
  });

  it("the passkey autofill's request refused (no passkey on this device) shows no failure", async () => {
    const { calls, fetchFn } = server({
      "GET /api/session": [200, { account: null, passkey_rp_id: "localhost", email_sign_in: true }],
      "POST /api/account/sign-in/begin": [200, { ceremony: "c1", options: OPTIONS }],
    });
    vi.stubGlobal("fetch", fetchFn);
    vi.stubGlobal("PublicKeyCredential", () => {});
    askAgain();
    const { auth } = fakeAuthenticator();
    setAuthenticator({
      ...auth,
      autofill: async () => true,
      get: async () => {
        throw new DOMException("no credential", "NotAllowedError");
      },
    });
    act(() => render(<Slot at="page" sub="" />, root()));
    await until(() => calls.some((c) => c.url === "/api/account/sign-in/begin"));
    await act(async () => void (await new Promise((r) => setTimeout(r, 20))));
    expect(root().querySelector("#account-sign-in-name")).not.toBeNull();
    expect(root().querySelector("[role=alert]")).toBeNull();
  });

  it("the account page registers with the typed username and says how many games were kept", async () => {
    localStorage.clear();
    localStorage.setItem("evr.token.DEVICE01", "t1");
    localStorage.setItem("evr.rooms", JSON.stringify([{ code: "DEVICE01", at: 1 }]));
    const { calls, fetchFn } = server({
      "GET /api/session": [200, { account: null, passkey_rp_id: "localhost", email_sign_in: true }],
      "POST /api/account/register/begin": [200, { ceremony: "c1", options: OPTIONS }],
      "POST /api/account/register/finish": [201, { username: "Ana" }],
      "POST /api/account/seats": [200, { seats: [{ code: "DEVICE01", outcome: "kept" }] }],
      "GET /api/account": [
        200,
        { username: "Ana", created_at_ms: 0, email: null, email_confirmed: false, passkeys: [], sessions: [] },
      ],
    });
    vi.stubGlobal("fetch", fetchFn);
    vi.stubGlobal("PublicKeyCredential", () => {});
    askAgain();
    const { auth } = fakeAuthenticator();
    setAuthenticator(auth);
    act(() => render(<Slot at="page" sub="" />, root()));
    await until(() => root().querySelector("#account-username") !== null);
    const input = root().querySelector<HTMLInputElement>("#account-username")!;
    // passkey autofill in the sign-in field
    expect(root().querySelector("#account-sign-in-name")!.getAttribute("autocomplete")).toBe("username webauthn");
    // too short: said here, nothing asked
    act(() => {
      input.value = "A";
      input.dispatchEvent(new Event("input", { bubbles: true }));
    });
    await act(async () => {
      input.form!.dispatchEvent(new Event("submit", { bubbles: true, cancelable: true }));
    });
    expect(root().querySelector("[role=alert]")!.textContent).toBe(text().errors.bad_username);
    act(() => {
      input.value = "Ana";
      input.dispatchEvent(new Event("input", { bubbles: true }));
    });
    await act(async () => {
      input.form!.dispatchEvent(new Event("submit", { bubbles: true, cancelable: true }));
      await new Promise((r) => setTimeout(r, 10));
    });
    await until(() => root().querySelector("[role=status]") !== null);
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual([
      "GET /api/session",
      "POST /api/account/register/begin",
      "POST /api/account/register/finish",
      "POST /api/account/seats",
      "GET /api/account",
    ]);
    expect(root().querySelector("[role=status]")!.textContent).toBe(text().kept(1));
  });
});
