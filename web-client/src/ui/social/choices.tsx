// The challenge form's choices, as the landing page's create form offers them (ui/Landing.tsx: its
// radio group and its clock choices, the same texts). A copy, not an import: the page's own script
// would have to export them to this part loaded on demand, which cost ~80 bytes of a page budget
// (scripts/budget.mjs) that had 116 left in Japanese. Keep the two in step.
import type { TimeControl } from "../../net/protocol";

export type ClockChoice = "none" | "10+10" | "20+20" | "custom" | "days";

/** The days a correspondence room gives each decision (the server accepts exactly these). */
export const DAYS = ["1", "2", "3", "7"] as const;
export type DaysChoice = (typeof DAYS)[number];

/** The room option for a clock choice: presets, custom minutes (1–90) and seconds a decision (0–120),
 *  or days per decision (a correspondence room). */
export function timeControl(
  choice: ClockChoice,
  minutes: number,
  increment: number,
  days: DaysChoice,
): { clock?: TimeControl } {
  const clampInt = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, Math.round(v) || lo));
  switch (choice) {
    case "none":
      return {};
    case "10+10":
      return { clock: { bank_secs: 600, increment_secs: 10 } };
    case "20+20":
      return { clock: { bank_secs: 1200, increment_secs: 20 } };
    case "custom":
      return { clock: { bank_secs: clampInt(minutes, 1, 90) * 60, increment_secs: clampInt(increment, 0, 120) } };
    case "days":
      return { clock: { days_per_decision: Number(days) } };
  }
}

export function Radio<T extends string>(props: {
  legend: string;
  name: string;
  value: T;
  onChange: (v: T) => void;
  options: (readonly [T, string])[];
}) {
  return (
    <fieldset class={`choices f-${props.name}`}>
      <legend>{props.legend}</legend>
      {props.options.map(([v, label]) => (
        <label key={v} class={`choice${props.value === v ? " on" : ""} opt-${v}`}>
          <input
            type="radio"
            name={props.name}
            value={v}
            checked={props.value === v}
            onChange={() => props.onChange(v)}
          />
          {label}
        </label>
      ))}
    </fieldset>
  );
}
