// The "Another device" panel in 繁體中文 (i18n/seatPanel.ts): loaded when the panel is first opened.
import type { SeatPanelText } from "../seatPanel";

const when = (s: number) =>
  new Intl.DateTimeFormat("zh-Hant", { dateStyle: "medium", timeStyle: "short" }).format(new Date(s * 1000));

export const text: SeatPanelText = {
  title: "在其他裝置上使用這個座位",
  explain:
    "在手機或平板上開啟此連結（或掃描 QR 碼），就能在那裡使用你的座位。連結只能用一次，10 分鐘內有效；這台裝置也會保留座位。",
  qr: "在其他裝置使用這個座位的連結（QR 碼）",
  link: "給你其他裝置的連結",
  expires: (m, s) => `剩餘有效時間 ${m}:${s}`,
  expired: "此連結已過期。",
  again: "產生新連結",
  make: "產生連結",
  devices: "使用這個座位的裝置",
  device: (d) =>
    `${d.this_device ? "這台裝置" : "其他裝置"}${d.added_at === null ? "" : `（${when(d.added_at)} 加入）`}${
      d.connected && !d.this_device ? "・目前連線中" : ""
    }`,
  alone: "只有這台裝置在使用這個座位。",
  signOut: "將其他裝置登出這個座位",
  signOutWarning:
    "其他裝置的座位連結會立即失效，除非從這台裝置再產生新連結，否則無法回來。若你的座位連結可能被別人拿到，請使用這個功能。",
  signOutConfirm: "登出它們",
  cancel: "取消",
  signedOut: (n) => `已將 ${n} 台裝置登出這個座位。`,
};
