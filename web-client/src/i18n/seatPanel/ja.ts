// The "Another device" panel in 日本語 (i18n/seatPanel.ts): loaded when the panel is first opened.
import type { SeatPanelText } from "../seatPanel";

const when = (s: number) =>
  new Intl.DateTimeFormat("ja", { dateStyle: "medium", timeStyle: "short" }).format(new Date(s * 1000));

export const text: SeatPanelText = {
  title: "この席を別の端末で遊ぶ",
  explain:
    "スマートフォンやタブレットでこのリンクを開く（またはコードを読み取る）と、そこで同じ席で遊べます。使えるのは1回だけ、10分間です。この端末の席もそのまま残ります。",
  qr: "この席を別の端末で遊ぶためのリンク（QRコード）",
  link: "別の端末用のリンク",
  expires: (m, s) => `有効期限まであと ${m}:${s}`,
  expired: "このリンクは期限切れです。",
  again: "新しいリンクを作る",
  make: "リンクを作る",
  devices: "この席で遊んでいる端末",
  device: (d) =>
    `${d.this_device ? "この端末" : "別の端末"}${d.added_at === null ? "" : `（${when(d.added_at)}に追加）`}${
      d.connected && !d.this_device ? "・接続中" : ""
    }`,
  alone: "この席で遊んでいるのはこの端末だけです。",
  signOut: "ほかの端末をこの席から外す",
  signOutWarning:
    "ほかの端末のこの席へのリンクはすぐに使えなくなり、この端末から新しいリンクを作らない限り戻れません。この席のリンクを誰かに知られたかもしれないときに使ってください。",
  signOutConfirm: "外す",
  cancel: "やめる",
  signedOut: (n) => `${n}台の端末をこの席から外しました。`,
};
