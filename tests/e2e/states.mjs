// The states of the layout property test (layout-states.test.mjs): random whole games played by the
// real engine (`evr views`, crates/cli/src/views.rs: what the server sends each viewer), every step
// rebuilt as the view that viewer holds then, and from those a fixed selection — every state a seat
// has a decision in, a share of the spectators' states, and the worst: fullest play areas, longest
// piles, longest logs. The games come from fixed seeds, so CI checks the same states every run.
import { execFileSync } from "node:child_process";

const viewerName = (v) => (typeof v === "object" && v.seat ? v.seat : "spectator");

/** Every step of one viewer's game (the view at each, the first before any action) and how long its
 *  log is then. Views are shallow copies: `changes` replace whole fields (`null` empties one); the
 *  page gets the log from the messages, so the views here carry only the first one's. */
function* steps(game) {
  let view = game.view;
  let logLength = view.log?.length ?? 0;
  yield { step: 0, view, logLength };
  let step = 0;
  for (const u of game.updates) {
    step++;
    view = { ...view, ...u.changes };
    logLength += u.events.length;
    yield { step, view, logLength };
  }
}

/** How much a state asks of the table: the fullest play area, the longest pile, the log. */
function weight(view, logLength) {
  const sides = [view.rebel, view.imperial];
  return {
    area: Math.max(...sides.map((p) => p.play_area.length)),
    pile: Math.max(...sides.map((p) => p.discard_pile.length + p.reserve_known.length)),
    log: logLength,
  };
}

/** Whether the view holds a decision of its viewer (a seat with legal actions). */
export const hasDecision = (view) => typeof view.viewer === "object" && view.legal_actions.length > 0;

/**
 * Plays `games` random games from `firstSeed` in `mode` with `evr` (the release CLI) and picks the
 * steps to check in each viewer's game: every step its seat has a decision in, every
 * `spectatorEvery`-th step of a spectator's, and the `worst` fullest, longest-piled and
 * longest-logged steps of all. Returns each viewer's game as it is sent (`view`, then `updates`)
 * with the steps picked in it (`check`, ascending), and the view at each picked step (`views`).
 */
export function pickStates({ evr, games, firstSeed, mode = "full", spectatorEvery = 12, worst = 40 }) {
  const out = execFileSync(evr, ["views", "--games", String(games), "--first-seed", String(firstSeed), "--mode", mode], {
    maxBuffer: 1 << 30,
    encoding: "utf8",
  });
  const played = [];
  const others = [];
  for (const line of out.split("\n")) {
    if (!line.trim()) continue;
    const game = JSON.parse(line);
    const who = viewerName(game.viewer);
    const entry = { key: `${mode} seed ${game.seed} ${who}`, seed: game.seed, viewer: who, view: game.view, updates: game.updates, picked: new Map() };
    played.push(entry);
    for (const { step, view, logLength } of steps(game)) {
      if (who !== "spectator" ? hasDecision(view) : step % spectatorEvery === 0) entry.picked.set(step, view);
      else others.push({ entry, step, view, w: weight(view, logLength) });
    }
  }
  for (const by of ["area", "pile", "log"]) {
    others.sort((a, b) => b.w[by] - a.w[by]);
    for (const { entry, step, view } of others.slice(0, worst)) entry.picked.set(step, view);
  }
  return played.map(({ picked, ...g }) => {
    const check = [...picked.keys()].sort((a, b) => a - b);
    return { ...g, check, views: check.map((k) => picked.get(k)) };
  });
}

/** A friends' room `code` with `options` and the players' `names` (`room` of a welcome). */
export function room(code, options, names) {
  return { code, options, game_number: 1, rematch_requested: [false, false], forfeit_winner: null, forfeit_reason: null, fairness: null, reveal_agreed: [false, false], names };
}

/** One viewer's game (from pickStates) as the server sends it: the welcome in `room` (with `clock`
 *  when the room has one), then an update per action; each message as its JSON text. */
export function gameMessages(game, room, { clock, version = 2, spectators = 0 } = {}) {
  const welcome = {
    type: "welcome",
    version,
    you: game.viewer === "spectator" ? { role: "spectator" } : { role: "seat", faction: game.viewer },
    room,
    seq: 1,
    view: game.view,
    presence: { seats: [0, 1].map(() => ({ taken: true, connected: true, claim_in_seconds: null })), spectators },
    log: game.view.log,
    missed: null,
    chat: [],
  };
  if (clock) welcome.clock = clock;
  return [JSON.stringify(welcome), ...game.updates.map((u, k) => JSON.stringify({ type: "update", seq: k + 2, changes: u.changes, events: u.events }))];
}
