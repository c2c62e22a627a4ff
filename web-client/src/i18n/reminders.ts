// The email reminders' panel (a room over days, on a server that sends mail), one file per language
// (i18n/reminders/), loaded when the panel is first shown in that language (i18n/onDemand.ts): most
// rooms are live and never show it.
import { textsOnDemand } from "./onDemand";

export type RemindersText = {
  readonly title: string;
  readonly explain: string;
  readonly email: string;
  readonly remembered: string;
  readonly send: string;
  readonly sending: string;
  /** `hint`: the masked address the confirmation went to. */
  readonly pending: (hint: string) => string;
  readonly on: (hint: string) => string;
  /** The address filled in is the signed-in account's confirmed one: no confirmation mail. */
  readonly account: string;
  readonly stop: string;
  readonly stopped: string;
};

const texts = textsOnDemand<RemindersText>({
  en: () => import("./reminders/en").then((m) => m.text),
  "zh-Hant": () => import("./reminders/zhHant").then((m) => m.text),
  ja: () => import("./reminders/ja").then((m) => m.text),
});

export const loadReminders = texts.load;
export const remindersIn = texts.in;
