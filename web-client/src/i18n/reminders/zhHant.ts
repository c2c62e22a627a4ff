// The email reminders' panel in 繁體中文 (i18n/reminders.ts): loaded when a room over days shows it.
import type { RemindersText } from "../reminders";

export const text: RemindersText = {
  title: "電子郵件提醒",
  explain:
    "輪到你而此頁面已關閉時，以及你的時間快用完時，寄電子郵件通知你。我們會先寄一封郵件確認地址；地址只用於此房間，並在遊戲結束 7 天後刪除。",
  email: "電子郵件地址",
  remembered: "此裝置會記住這個地址，供你下一個房間使用。",
  send: "寄提醒給我",
  sending: "寄送中…",
  pending: (hint) => `請確認我們寄到 ${hint} 的郵件：開啟其中的連結後才會開始提醒。`,
  on: (hint) => `此房間的提醒會寄到 ${hint}。`,
  account: "這是你帳號的地址：不需要再確認。",
  stop: "停止提醒",
  stopped: "此房間不再寄送提醒。",
};
