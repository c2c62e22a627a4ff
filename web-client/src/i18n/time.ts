// Time over days, as a correspondence room shows it: how long is left ("2 days 3 h left") and when a
// deadline falls, in the viewer's own time zone. Both read only what the server said (a `ClockView`'s
// `remaining_ms` and `deadline_unix_ms`); nothing here decides anything.
import { translate } from ".";
import type { Lang } from "./langs";

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** `ms` as the two largest units that matter, rounded down (never up: a player is not told they
 *  have a minute they do not have): "2 days 3 h", "5 h 20 min", "12 min", "45 s". */
export function timeAmount(l: Lang, ms: number): string {
  const left = Math.max(0, Math.floor(ms));
  const days = Math.floor(left / DAY);
  const hours = Math.floor((left % DAY) / HOUR);
  const minutes = Math.floor((left % HOUR) / MINUTE);
  const seconds = Math.floor((left % MINUTE) / SECOND);
  const unit = (key: "time.days" | "time.day" | "time.hours" | "time.minutes" | "time.seconds", n: number) =>
    translate(l, key, { n });
  const pair = (a: string, b: string | null) => (b === null ? a : translate(l, "time.pair", { a, b }));
  if (days > 0)
    return pair(unit(days === 1 ? "time.day" : "time.days", days), hours > 0 ? unit("time.hours", hours) : null);
  if (hours > 0) return pair(unit("time.hours", hours), minutes > 0 ? unit("time.minutes", minutes) : null);
  if (minutes > 0) return unit("time.minutes", minutes);
  return unit("time.seconds", seconds);
}

/** "2 days 3 h left". */
export function timeLeft(l: Lang, ms: number): string {
  return translate(l, "time.left", { time: timeAmount(l, ms) });
}

/** Where each language's date formats come from (Intl's locale ids). */
const LOCALE: { readonly [L in Lang]: string } = { en: "en-GB", "zh-Hant": "zh-TW", ja: "ja-JP" };

/** A deadline as a date and time in `timeZone` (the viewer's own when not given): day, month, hour
 *  and minute, and the zone's short name so friends in two zones know whose time it is. (No weekday:
 *  the header has little room, and a week ahead falls on today's.) */
function deadlineAt(l: Lang, unixMs: number, timeZone?: string): string {
  return new Intl.DateTimeFormat(LOCALE[l], {
    day: "numeric",
    month: "short",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
    timeZoneName: "short",
    ...(timeZone ? { timeZone } : {}),
  }).format(new Date(unixMs));
}

/** "until 27 Nov, 14:05 GMT+9". */
export function deadlineText(l: Lang, unixMs: number, timeZone?: string): string {
  return translate(l, "time.until", { when: deadlineAt(l, unixMs, timeZone) });
}
