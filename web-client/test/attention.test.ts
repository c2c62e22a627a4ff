// "Your turn" while away: marks while a decision waits and the page is away; one beep and one
// notification per decision that arrives while away, as the settings allow; none while present.
import { describe, expect, it } from "vitest";
import { setLanguage } from "../src/i18n";
import { TurnAlerts } from "../src/ui/attention";

function alerts() {
  const calls = { beeps: 0, notes: [] as string[] };
  const a = new TurnAlerts({
    beep: () => calls.beeps++,
    notify: (title, body) => calls.notes.push(`${title} | ${body}`),
  });
  return { a, calls };
}

describe("your turn while away", () => {
  it("a decision arriving while the page is hidden beeps and notifies once and marks the title", () => {
    setLanguage("en");
    const { a, calls } = alerts();
    a.update(false, true, true, true);
    expect(a.marked.value).toBe(false);
    a.update(true, true, true, true);
    expect(a.marked.value).toBe(true);
    expect(calls).toEqual({ beeps: 1, notes: ["Your turn — EvR Online | The game is waiting for your decision."] });
    a.update(true, true, true, true);
    expect(calls.beeps).toBe(1);
    // back on the page: the marks go, nothing more
    a.update(true, false, true, true);
    expect(a.marked.value).toBe(false);
    // away again with the same decision waiting: marked, but no second sound
    a.update(true, true, true, true);
    expect(a.marked.value).toBe(true);
    expect(calls.beeps).toBe(1);
    // decided, then the next decision while away: again
    a.update(false, true, true, true);
    a.update(true, true, true, true);
    expect(calls.beeps).toBe(2);
    expect(calls.notes).toHaveLength(2);
  });

  it("nothing while present; settings off mean no sound or notification, the marks stay", () => {
    setLanguage("ja");
    const { a, calls } = alerts();
    a.update(true, false, true, true);
    expect(calls).toEqual({ beeps: 0, notes: [] });
    a.update(false, true, false, false);
    a.update(true, true, false, false);
    expect(calls).toEqual({ beeps: 0, notes: [] });
    expect(a.marked.value).toBe(true);
    a.update(false, true, false, true);
    a.update(true, true, false, true);
    expect(calls.notes).toEqual(["あなたの番です — EvR Online | ゲームがあなたの決定を待っています。"]);
  });
});
