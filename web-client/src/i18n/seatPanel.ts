// The texts of the "Another device" panel (a link that moves the seat, the seat's devices, the others
// signed out), one file per language (i18n/seatPanel/), loaded the first time the panel is opened in
// that language (i18n/onDemand.ts): few visits open it.
import type { SeatDevice } from "../net/protocol";
import { textsOnDemand } from "./onDemand";

export type SeatPanelText = {
  readonly title: string;
  readonly explain: string;
  /** The QR code's label. */
  readonly qr: string;
  readonly link: string;
  readonly expires: (m: number, s: string) => string;
  readonly expired: string;
  readonly again: string;
  readonly make: string;
  readonly devices: string;
  /** One device of the list: this one or another, when it was added, whether it is connected now. */
  readonly device: (d: SeatDevice) => string;
  readonly alone: string;
  readonly signOut: string;
  readonly signOutWarning: string;
  readonly signOutConfirm: string;
  readonly cancel: string;
  readonly signedOut: (n: number) => string;
};

const texts = textsOnDemand<SeatPanelText>({
  en: () => import("./seatPanel/en").then((m) => m.text),
  "zh-Hant": () => import("./seatPanel/zhHant").then((m) => m.text),
  ja: () => import("./seatPanel/ja").then((m) => m.text),
});

export const loadSeatPanel = texts.load;
export const seatPanelIn = texts.in;
