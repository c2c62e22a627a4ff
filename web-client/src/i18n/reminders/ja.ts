// The email reminders' panel in 日本語 (i18n/reminders.ts): loaded when a room over days shows it.
import type { RemindersText } from "../reminders";

export const text: RemindersText = {
  title: "メールでのお知らせ",
  explain:
    "手番が来てこのページを閉じているときと、残り時間が少なくなったときに、メールでお知らせします。まずアドレスを確かめるメールを送ります。アドレスはこのルームにだけ使い、ゲーム終了から7日後に削除します。",
  email: "メールアドレス",
  remembered: "この端末は次のルームのためにアドレスを覚えます。",
  send: "お知らせを受け取る",
  sending: "送信中…",
  pending: (hint) => `${hint} に送ったメールを確かめてください。そのリンクを開くとお知らせが始まります。`,
  on: (hint) => `このルームのお知らせは ${hint} に届きます。`,
  account: "あなたのアカウントのアドレスです。確認は要りません。",
  stop: "お知らせを止める",
  stopped: "このルームのお知らせは止まりました。",
};
