// The "Another device" panel in English (i18n/seatPanel.ts): loaded when the panel is first opened.
import type { SeatPanelText } from "../seatPanel";

const when = (s: number) =>
  new Intl.DateTimeFormat("en", { dateStyle: "medium", timeStyle: "short" }).format(new Date(s * 1000));

export const text: SeatPanelText = {
  title: "Play this seat on another device",
  explain:
    "Open this link (or scan the code) on your phone or tablet: it takes your seat there. It works once, for 10 minutes; this device keeps the seat too.",
  qr: "Link to play this seat on another device, as a QR code",
  link: "Link for your other device",
  expires: (m, s) => `Works for ${m}:${s} more`,
  expired: "This link has expired.",
  again: "Make a new link",
  make: "Make a link",
  devices: "Devices playing this seat",
  device: (d) =>
    `${d.this_device ? "This device" : "Another device"}${d.added_at === null ? "" : `, added ${when(d.added_at)}`}${
      d.connected && !d.this_device ? " · connected now" : ""
    }`,
  alone: "Only this device plays this seat.",
  signOut: "Sign out the other devices",
  signOutWarning:
    "Their links to this seat stop working at once, and they come back only with a new link from this device. Do this if someone else may have your seat's link.",
  signOutConfirm: "Sign them out",
  cancel: "Cancel",
  signedOut: (n) => (n === 1 ? "1 device was signed out." : `${n} devices were signed out.`),
};
