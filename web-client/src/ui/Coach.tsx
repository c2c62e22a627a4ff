// The tutorial's coach (R-2.8: one struggle, basic cards, play / use a power / pass): a short
// panel that says, at every moment of the guided first game, what to do now and why. It reads the
// same view and legal actions as the table, so it never suggests something the server would refuse.
import { sideName, t } from "../i18n";
import { otherFaction, type View } from "../net/protocol";
import { playerOf, waitingFor } from "../state/derived";
import type { GameStore } from "../state/store";

/** Which lesson applies now, and its parameters. */
function lesson(view: View, store: GameStore): { key: string; params: Record<string, string | number> } | null {
  const me = store.me.value;
  if (!me || !view.event) return null;
  const opp = otherFaction(me);
  const mine = playerOf(view, me);
  const theirs = playerOf(view, opp);
  const objective = view.event.objective;
  const params = { objective, total: mine.total, them: sideName(opp), theirTotal: theirs.total };
  if (view.phase !== "struggle") return null;
  if (view.pending)
    return view.pending.owner === me ? { key: "coach.choice", params } : { key: "coach.theirChoice", params };
  if (waitingFor(view) !== me) return { key: "coach.wait", params };
  const legal = store.legal.value;
  const canUsePower = [...store.legalCards.value.values()].some((a) => a.use_power);
  if (mine.play_area.length === 0) return { key: "coach.first", params };
  if (mine.total > objective) return { key: "coach.bust", params };
  if (view.last_action_was_pass && legal.pass) return { key: "coach.theyPassed", params };
  if (!legal.play_card) return { key: "coach.full", params };
  if (objective - mine.total <= 3) return { key: "coach.close", params };
  if (canUsePower) return { key: "coach.power", params };
  return { key: "coach.more", params };
}

export function Coach({ view, store }: { view: View; store: GameStore }) {
  if (view.mode !== "tutorial" || store.replaying.value) return null;
  const l = lesson(view, store);
  if (!l) return null;
  return (
    <section class="coach" aria-labelledby="coach-h" aria-live="polite">
      <h2 id="coach-h">{t("coach.title")}</h2>
      <p>{t(l.key as Parameters<typeof t>[0], l.params)}</p>
    </section>
  );
}
