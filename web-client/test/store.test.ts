import { describe, expect, it } from "vitest";
import { Connection } from "../src/net/connection";
import type { Action, Card, CardRef, Choice, LogEntry, View } from "../src/net/protocol";
import {
  capacityLeft,
  characterPool,
  choiceKey,
  legalByCard,
  legalByKind,
  matchCardsOption,
  matchCharacterChoice,
  meterTotal,
  optionForCard,
  pendingTargets,
  strategyChoices,
  totalStatus,
  waitingFor,
} from "../src/state/derived";
import { GameStore } from "../src/state/store";
import { FakeClock, FakeSockets, makeView, ROOM, welcome } from "./fakes";

const me = { role: "seat" as const, faction: "rebel" as const };

describe("derived helpers", () => {
  it("totals against the objective, bust", () => {
    const v = makeView();
    v.rebel.total = 12;
    v.imperial.total = 17;
    expect(totalStatus(v, "rebel")).toEqual({ total: 12, objective: 15, margin: 3, bust: false });
    expect(totalStatus(v, "imperial")).toMatchObject({ bust: true, margin: -2 });
    expect(totalStatus(makeView({ event: null }), "rebel")).toBeNull();
  });

  it("capacity left and whose move", () => {
    const v = makeView({ turn: "imperial" });
    v.rebel.capacity_left = 2;
    expect(capacityLeft(v, "rebel")).toBe(2);
    expect(waitingFor(v)).toBe("imperial");
    v.pending = {
      owner: "rebel",
      source: { kind: "strategy", strategy: "support" },
      step: { step: "add_reserve_character" },
      options: null,
      seen_cards: null,
      seen_events: null,
    };
    expect(waitingFor(v)).toBe("rebel");
    expect(waitingFor(makeView({ phase: "planning", turn: null }))).toBeNull();
  });

  it("groups legal actions by kind and by card", () => {
    const legal: Action[] = [
      { type: "play_card" },
      { type: "use_power", card: "Han Solo" },
      { type: "use_power", card: "Military 3" },
      { type: "spend_influence", card: "Yoda" },
      { type: "pass" },
    ];
    const v = makeView({ legal_actions: legal });
    const byKind = legalByKind(v);
    expect(Object.keys(byKind).sort()).toEqual(["pass", "play_card", "spend_influence", "use_power"]);
    expect(byKind.use_power?.length).toBe(2);
    const byCard = legalByCard(v);
    expect(byCard.get("Han Solo")).toEqual({ use_power: { type: "use_power", card: "Han Solo" } });
    expect(byCard.get("Yoda")?.spend_influence).toBeDefined();
    expect(byCard.has("Military 5")).toBe(false);
  });

  it("pending targets only for the owner of the choice", () => {
    const v = makeView({
      pending: {
        owner: "rebel",
        source: { kind: "card", card: { owner: "rebel", card: "Military 3" } },
        step: { step: "discard_opponent_card" },
        options: [
          { kind: "cards", cards: [{ owner: "imperial", card: "Darth Vader" }] },
          { kind: "cards", cards: [{ owner: "imperial", card: "Recon 2" }] },
        ],
        seen_cards: null,
        seen_events: null,
      },
    });
    expect([...pendingTargets(v, me)].sort()).toEqual(["imperial:Darth Vader", "imperial:Recon 2"]);
    expect(pendingTargets(v, { role: "seat", faction: "imperial" }).size).toBe(0);
    expect(pendingTargets(v, { role: "spectator" }).size).toBe(0);
  });

  it("matches a selection of cards to an offered option, order-free", () => {
    const opts: Choice[] = [
      { kind: "cards", cards: [] },
      {
        kind: "cards",
        cards: [
          { owner: "imperial", card: "IG-88" },
          { owner: "imperial", card: "Recon 2" },
        ],
      },
    ];
    expect(matchCardsOption(opts, ["imperial:Recon 2", "imperial:IG-88"])).toBe(opts[1]);
    expect(matchCardsOption(opts, [])).toBe(opts[0]);
    expect(matchCardsOption(opts, ["imperial:Recon 2"])).toBeNull();
    expect(choiceKey(opts[1]!)).toBe("cards:imperial:IG-88,imperial:Recon 2");
  });

  it("a click on a glowing card picks the option naming only that card", () => {
    const a: CardRef = { owner: "rebel", card: "Luke Skywalker" };
    const b: CardRef = { owner: "imperial", card: "Recon 2" };
    const opts: Choice[] = [
      { kind: "cards", cards: [a, b] },
      { kind: "cards", cards: [b] },
      { kind: "cards", cards: [a] },
    ];
    expect(optionForCard(opts, "rebel:Luke Skywalker")).toBe(opts[2]);
    expect(optionForCard(opts, "imperial:Recon 2")).toBe(opts[1]);
    expect(optionForCard([opts[0]!], "imperial:Recon 2")).toBe(opts[0]);
    expect(optionForCard(opts, "imperial:IG-88")).toBeNull();
  });

  it("character choice: pool and matching against the legal actions", () => {
    const chars: Card[] = ["Chewbacca", "Han Solo", "Lando Calrissian", "Leia Organa", "Luke Skywalker"];
    const legal: Action[] = [];
    for (let skip = 0; skip < chars.length; skip++)
      legal.push({ type: "choose_characters", characters: chars.filter((_, i) => i !== skip) });
    const v = makeView({ phase: "character_choice", legal_actions: legal });
    expect(characterPool(v)).toEqual(chars);
    expect(matchCharacterChoice(v, ["Luke Skywalker", "Han Solo", "Chewbacca", "Leia Organa"])).toEqual(legal[2]);
    expect(matchCharacterChoice(v, ["Han Solo"])).toBeNull();
  });

  it("strategy choices by target", () => {
    const v = makeView({
      phase: "planning",
      legal_actions: [
        { type: "choose_strategy", target: "rebel", strategy: "support" },
        { type: "choose_strategy", target: "imperial", strategy: "deception" },
      ],
    });
    const s = strategyChoices(v);
    expect(s.rebel.length).toBe(1);
    expect(s.imperial.length).toBe(1);
  });
});

function wired() {
  const sockets = new FakeSockets();
  const clock = new FakeClock();
  const conn = new Connection({
    url: "ws://t",
    token: "tok",
    socketFactory: sockets.factory,
    clock,
    random: () => 0,
    idPrefix: "x",
  });
  const store = new GameStore(() => clock.now());
  store.attach(conn);
  conn.start();
  sockets.current.serverOpen();
  return { sockets, clock, conn, store };
}

describe("GameStore", () => {
  it("fills room, role, view, presence and the log from the welcome", () => {
    const { sockets, store } = wired();
    const v: View = makeView({
      log: [{ type: "passed", faction: "imperial" }],
      legal_actions: [{ type: "play_card" }],
    });
    sockets.current.serverSend(welcome(5, v));
    expect(store.status.value).toBe("ready");
    expect(store.me.value).toBe("rebel");
    expect(store.seq.value).toBe(5);
    expect(store.log.value).toEqual([{ type: "passed", faction: "imperial" }]);
    expect(store.myTurn.value).toBe(true);
    expect(store.legal.value.play_card?.length).toBe(1);
  });

  it("appends update events, and takes the game's whole log from a welcome on resume", () => {
    const { sockets, clock, store } = wired();
    sockets.current.serverSend(welcome(5));
    sockets.current.serverSend({
      type: "update",
      seq: 6,
      changes: {},
      events: [{ type: "card_played", faction: "rebel", card: "Yoda" }],
    });
    expect(store.log.value.length).toBe(1);
    sockets.current.serverClose();
    clock.advance(1000);
    sockets.current.serverOpen();
    const passed: LogEntry = { type: "passed", faction: "imperial" };
    const whole: LogEntry[] = [{ type: "card_played", faction: "rebel", card: "Yoda" }, passed];
    sockets.current.serverSend(welcome(7, makeView(), [passed], whole));
    expect(store.log.value.map((e) => e.type)).toEqual(["card_played", "passed"]);
    expect(store.lastEvents.value).toEqual([passed]);
    expect(store.seq.value).toBe(7);
  });

  it("an update changes only the fields it carries; null empties one", () => {
    const { sockets, store } = wired();
    const before = makeView({ phase: "struggle", turn: "rebel", round: 2 });
    sockets.current.serverSend(welcome(5, before));
    sockets.current.serverSend({ type: "update", seq: 6, changes: { turn: null, round: 3 }, events: [] });
    expect(store.view.value).toEqual({ ...before, turn: null, round: 3 });
    expect(store.view.value?.phase).toBe("struggle");
    expect(store.seq.value).toBe(6);
  });

  it("a reload shows the whole log of the game, not only the current round", () => {
    const { sockets, store } = wired();
    const earlier: LogEntry[] = [
      { type: "game_started", mode: "full", balance: "rebel" },
      { type: "card_played", faction: "rebel", card: "Yoda" },
    ];
    const thisRound: LogEntry[] = [{ type: "passed", faction: "imperial" }];
    sockets.current.serverSend(welcome(41, makeView({ log: thisRound }), null, [...earlier, ...thisRound]));
    expect(store.log.value).toEqual([...earlier, ...thisRound]);
  });

  it("a welcome after stale_action does not repeat log entries already seen", () => {
    const { sockets, store } = wired();
    sockets.current.serverSend(welcome(5));
    store.act({ type: "pass" });
    const id = (sockets.current.last() as { action_id: string }).action_id;
    const played: LogEntry = { type: "card_played", faction: "imperial", card: "IG-88" };
    sockets.current.serverSend({ type: "update", seq: 6, changes: {}, events: [played] });
    sockets.current.serverSend({ type: "error", code: "stale_action", message: "stale", action_id: id });
    sockets.current.serverSend(welcome(6, makeView(), [played]));
    expect(store.log.value).toEqual([played]);
  });

  it("a rematch welcome (next game) starts a fresh log", () => {
    const { sockets, store } = wired();
    sockets.current.serverSend(welcome(5));
    sockets.current.serverSend({
      type: "update",
      seq: 6,
      changes: {},
      events: [{ type: "passed", faction: "rebel" }],
    });
    const next = welcome(
      7,
      makeView({ phase: "character_choice", log: [{ type: "game_started", mode: "full", balance: "rebel" }] }),
    );
    if (next.type === "welcome") next.room = { ...next.room, game_number: 2 };
    sockets.current.serverSend(next);
    expect(store.log.value.map((e) => e.type)).toEqual(["game_started"]);
  });

  it("is busy while an action is in flight, then free after the ack", () => {
    const { sockets, store } = wired();
    sockets.current.serverSend(welcome(5, makeView({ legal_actions: [{ type: "pass" }] })));
    expect(store.act({ type: "pass" })).toBe(true);
    expect(store.busy.value).toBe(true);
    expect(store.act({ type: "pass" })).toBe(false); // no double send
    const sent = sockets.current.last();
    expect(sent).toMatchObject({ type: "action", based_on: 5 });
    sockets.current.serverSend({ type: "ack", action_id: (sent as { action_id: string }).action_id, seq: 6 });
    expect(store.busy.value).toBe(false);
  });

  it("records errors with codes but not stale_action; stale frees the action", () => {
    const { sockets, store } = wired();
    sockets.current.serverSend(welcome(5));
    store.act({ type: "pass" });
    const id = (sockets.current.last() as { action_id: string }).action_id;
    sockets.current.serverSend({ type: "error", code: "stale_action", message: "stale", action_id: id });
    expect(store.lastError.value).toBeNull();
    expect(store.busy.value).toBe(false);
    sockets.current.serverSend({ type: "error", code: "rate_limited", message: "slow down", action_id: null });
    expect(store.lastError.value).toMatchObject({ code: "rate_limited" });
  });

  it("tracks presence and room messages", () => {
    const { sockets, store } = wired();
    sockets.current.serverSend(welcome(5));
    sockets.current.serverSend({
      type: "presence",
      presence: {
        seats: [
          { taken: true, connected: true, claim_in_seconds: null },
          { taken: true, connected: false, claim_in_seconds: 120 },
        ],
        spectators: 2,
      },
    });
    expect(store.presence.value?.spectators).toBe(2);
    expect(store.opponentSeat.value).toMatchObject({ connected: false, claim_in_seconds: 120 });
    sockets.current.serverSend({ type: "room", room: { ...ROOM, rematch_requested: [true, false] } });
    expect(store.room.value?.rematch_requested).toEqual([true, false]);
  });

  it("reports a fatal failure", () => {
    const { sockets, store } = wired();
    sockets.current.serverSend({ type: "error", code: "room_not_found", message: "no room", action_id: null });
    expect(store.status.value).toBe("failed");
    expect(store.failure.value).toBe("room_not_found");
  });
});

import { parseRoute } from "../src/state/route";

describe("routes", () => {
  it("parses every route", () => {
    expect(parseRoute("/", "")).toEqual({ page: "landing" });
    expect(parseRoute("/r/AAbXBEVJ33", "")).toEqual({ page: "room", code: "AAbXBEVJ33" });
    expect(parseRoute("/r/Q7XKMB4R2T/join", "#9a1e")).toEqual({ page: "join", code: "Q7XKMB4R2T", invite: "9a1e" });
    expect(parseRoute("/r/Q7XKMB4R2T/watch/", "")).toEqual({ page: "watch", code: "Q7XKMB4R2T" });
    expect(parseRoute("/r/KJCH-M97E/games", "")).toEqual({ page: "archive", code: "KJCHM97E" });
    expect(parseRoute("/r/kjchm97e/games/12/", "")).toEqual({ page: "replay", code: "KJCHM97E", game: 12 });
    expect(parseRoute("/r/KJCHM97E/games/0", "")).toEqual({ page: "notFound" });
    expect(parseRoute("/r/KJCHM97E/games/x", "")).toEqual({ page: "notFound" });
    expect(parseRoute("/nope", "")).toEqual({ page: "notFound" });
  });
});

describe("the names the table shows", () => {
  it("the computer's seat is named as the computer and its level, in the reader's language; a friend's by their name or side", async () => {
    const { setLanguage } = await import("../src/i18n");
    setLanguage("en");
    const store = new GameStore();
    const w = welcome(3, makeView());
    if (w.type === "welcome")
      w.room = {
        ...ROOM,
        options: { ...ROOM.options, opponent: { kind: "computer", level: "easy" } },
        names: ["Ana", null],
      };
    store.apply(w);
    expect(store.names.value).toEqual(["Ana", "Computer — easy"]);
    setLanguage("ja");
    expect(store.names.value).toEqual(["Ana", "コンピューター（やさしい）"]);
    setLanguage("en");
    const friend = new GameStore();
    friend.apply(welcome(3, makeView()));
    expect(friend.names.value).toEqual([null, null]);
  });
});

describe("the totals' meter", () => {
  it("shows the play area's total, then the decided round's total with Direct Assault and bust, never both", () => {
    const v = makeView({ phase: "dominance" });
    v.rebel.total = 14;
    v.imperial.total = 11;
    const reveal = {
      round: 1,
      event: "Battle of Yavin" as const,
      objective: 15,
      strategies: [null, null] as [null, null],
      totals_at_reveal: [14, 11] as [number, number],
      eligible: [true, true] as [boolean, boolean],
      direct_assault: [false, false] as [boolean, boolean],
      totals: [14, 11] as [number, number],
      bust: [false, false] as [boolean, boolean],
      would_be_winner: null,
      deception: false,
      winner: null,
      reason: null,
      vp_after: [0, 0] as [number, number],
    };
    // revealed, not decided yet (a choice comes first): the live totals
    v.rounds = [reveal];
    expect(meterTotal(v, "rebel")).toMatchObject({ total: 14, bust: false, directAssault: false });
    // decided: the rebel's Direct Assault made 16 against 15, bust
    v.rounds = [
      {
        ...reveal,
        direct_assault: [true, false],
        totals: [16, 11],
        bust: [true, false],
        winner: "imperial",
        would_be_winner: "imperial",
        reason: "opponent_bust",
      },
    ];
    expect(meterTotal(v, "rebel")).toEqual({ total: 16, objective: 15, margin: -1, bust: true, directAssault: true });
    expect(meterTotal(v, "imperial")).toMatchObject({ total: 11, bust: false, directAssault: false });
    // the next round: the live totals again
    expect(meterTotal({ ...v, round: 2, event: { ...v.event!, event: "Battle of Hoth" } }, "rebel")).toMatchObject({
      total: 14,
      directAssault: false,
    });
  });
});
