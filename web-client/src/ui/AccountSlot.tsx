// Accounts' part of a page (ui/account/): loaded on demand, so it costs the first render nothing
// (scripts/budget.mjs); it shows nothing until it has arrived and nothing on a server without accounts.
import { onDemand } from "./onDemand";

const account = onDemand(() => import("./account/Account"));

export function AccountSlot(props: { at: "landing" | "room" | "page"; sub?: string }) {
  const m = account();
  return m && <m.Slot {...props} />;
}
