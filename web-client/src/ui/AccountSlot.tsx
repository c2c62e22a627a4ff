// Accounts' part of a page (ui/account/), with friends, challenges and ratings (ui/social/): loaded on
// demand, so it costs the first render nothing (scripts/budget.mjs); it shows nothing until it has
// arrived and nothing on a server without accounts. One file for both: two files loaded on demand
// that share modules made the bundler split the page's own script in two (~2.5 KB over the budget).
import type { RoomInfo } from "../net/protocol";
import { onDemand } from "./onDemand";

const account = onDemand(() => import("./account/Account"));
// asked for at once (it does not delay the first render): signed in, new challenges show on every
// page (ui/social/Notice.tsx, mounted by that file). Not in the unit tests, which count requests.
if (import.meta.env.MODE !== "test") account();

export type SlotProps =
  | { at: "landing" | "page"; sub?: string }
  /** the end of a game: "Keep your games" (a seat), each player's rating change (a rated room), add
   *  the opponent as a friend (a seat) */
  | { at: "room"; room: RoomInfo; seated: boolean }
  /** the way in to friends (signed in); "Rated game" in a rated room's header */
  | { at: "social-entry" | "rated" }
  /** `/#/friends`, `/#/players/…`, `/#/leaderboard` */
  | { at: "social"; sub: string };

export function AccountSlot(props: SlotProps) {
  const m = account();
  return m && <m.Slot {...props} />;
}
