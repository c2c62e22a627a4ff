// The email reminders' panel in English (i18n/reminders.ts): loaded when a room over days shows it.
import type { RemindersText } from "../reminders";

export const text: RemindersText = {
  title: "Email reminders",
  explain:
    "Get an email when it is your turn and this page is closed, and when your time is running out. We first send a mail to confirm the address; it is used for this room only and deleted 7 days after the game ends.",
  email: "Email address",
  remembered: "This device remembers the address for your next room.",
  send: "Send me reminders",
  sending: "Sending…",
  pending: (hint) => `Confirm the mail we sent to ${hint}: reminders start once you open its link.`,
  on: (hint) => `Reminders for this room go to ${hint}.`,
  account: "Your account's address: no confirmation needed.",
  stop: "Stop reminders",
  stopped: "No more reminders for this room.",
};
