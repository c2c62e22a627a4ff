// The order of "your rooms" (the landing page's list of this device's seats): the rooms played over
// days where this seat owes a decision come first, the nearest deadline first, each with its time
// left; the others keep the list's order (the one opened last first). Only the server's word is read
// (`GET /api/rooms/{code}/seat`: its state and clock); nothing is decided here.
import { signal } from "@preact/signals";
import type { SeatSummary } from "../net/protocol";

/** A room of the list as far as it is known: its summary and when this page received it (page ms). */
export interface ListedRoom {
  code: string;
  summary: SeatSummary | null;
  /** when `summary` arrived, on this page's clock (ms) */
  at: number;
}

/** A room the signed-in account keeps and this device does not hold (yet): its summary from the
 *  account (`GET /api/rooms/{code}/account-seat`), and what opens it (this device takes a token of
 *  its own first). Filled by the account's part of the page (ui/account/), loaded on demand. */
export type AccountRoom = ListedRoom & { error: string | null; open: (e: Event) => void };
export const accountRooms = signal<readonly AccountRoom[]>([]);
/** The list's heading while it holds the account's rooms too (`null`: this device's alone). */
export const accountListTitle = signal<string | null>(null);

/** This device's rooms, then the account's that are not among them. */
export function withAccountRooms<R extends ListedRoom>(device: readonly R[], account: readonly R[]): R[] {
  return [...device, ...account.filter((a) => !device.some((d) => d.code === a.code))];
}

/** The time this seat has left for its decision, at page time `now`: only in a room over days where
 *  it is this seat's turn (null otherwise), counted down from the server's answer. */
export function yourTimeLeft(room: ListedRoom, now: number): number | null {
  const s = room.summary;
  const clock = s?.clock;
  if (s?.state !== "your_turn" || !clock || clock.days_per_decision === null) return null;
  const i = s.you === "rebel" ? 0 : 1;
  if (!clock.running[i]) return null;
  return Math.max(0, clock.remaining_ms[i]! - Math.max(0, now - room.at));
}

/** The list in the order it is shown: your turn over days first (least time left first), then the
 *  rest as they were (a stable order: rooms that tie keep theirs). */
export function orderRooms<R extends ListedRoom>(rooms: readonly R[], now: number): R[] {
  const due = rooms
    .map((room, index) => ({ room, index, left: yourTimeLeft(room, now) }))
    .filter((r): r is { room: R; index: number; left: number } => r.left !== null)
    .sort((a, b) => a.left - b.left || a.index - b.index)
    .map((r) => r.room);
  return [...due, ...rooms.filter((r) => yourTimeLeft(r, now) === null)];
}
