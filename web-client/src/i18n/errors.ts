// Error texts in each language: every code of the protocol (`ErrorCode`, generated from
// crates/protocol into proto/ts) and the client's own (`LocalErrorCode`, net/protocol.ts). A new code
// or language fails `npm run typecheck` until it has its texts here. A code this build does not know
// (a newer server) shows the server's message.
import type { ClientErrorCode } from "../net/protocol";
import type { Lang } from "./langs";

const TEXTS: { readonly [C in ClientErrorCode]: { readonly [L in Lang]: string } } = {
  // protocol and rooms (proto/PROTOCOL.md)
  bad_message: {
    en: "The server did not understand a message.",
    "zh-Hant": "伺服器無法理解訊息。",
    ja: "サーバーがメッセージを理解できませんでした。",
  },
  frame_too_large: {
    en: "A message was too large.",
    "zh-Hant": "訊息過大。",
    ja: "メッセージが大きすぎます。",
  },
  version_mismatch: {
    en: "This page is out of date: reload it.",
    "zh-Hant": "此頁面版本過舊，請重新載入。",
    ja: "このページは古くなっています。再読み込みしてください。",
  },
  hello_expected: {
    en: "The connection was not set up correctly.",
    "zh-Hant": "連線設定不正確。",
    ja: "接続が正しく確立されませんでした。",
  },
  hello_repeated: {
    en: "This connection was already set up.",
    "zh-Hant": "此連線已經建立。",
    ja: "この接続はすでに確立されています。",
  },
  room_not_found: {
    en: "This room does not exist (or has expired).",
    "zh-Hant": "此房間不存在（或已過期）。",
    ja: "このルームは存在しません（または期限切れです）。",
  },
  too_many_rooms: {
    en: "Too many rooms created: wait a minute.",
    "zh-Hant": "建立太多房間，請稍候一分鐘。",
    ja: "ルームの作成が多すぎます。1分待ってください。",
  },
  bad_token: {
    en: "Your seat link is not valid for this room.",
    "zh-Hant": "你的座位連結對此房間無效。",
    ja: "この席のリンクはこのルームでは無効です。",
  },
  seat_taken: {
    en: "Both seats are already taken.",
    "zh-Hant": "兩個座位都已有人。",
    ja: "両方の席がすでに埋まっています。",
  },
  bad_join_code: {
    en: "That join code is not this room's. Ask the room's creator for it (6 digits).",
    "zh-Hant": "加入碼不正確。請向建立房間的人確認（6 位數字）。",
    ja: "参加コードが違います。ルームを作った人に確認してください（6桁）。",
  },
  too_many_join_attempts: {
    en: "Too many join codes were tried. Wait a minute, or ask the room's creator for the invite link or a new join code.",
    "zh-Hant": "嘗試加入碼的次數過多。請稍候一分鐘，或向建立房間的人索取邀請連結或新的加入碼。",
    ja: "参加コードの試行が多すぎます。1分待つか、ルームを作った人に招待リンクか新しい参加コードをもらってください。",
  },
  bad_name: {
    en: "A name is 1 to 24 characters on one line.",
    "zh-Hant": "名字須為 1 到 24 個字，且只有一行。",
    ja: "名前は1〜24文字で、1行にしてください。",
  },
  transfer_link_invalid: {
    en: "This link was used already, has expired, or was replaced by a newer one. Make a new one on the device that has the seat.",
    "zh-Hant": "此連結已使用過、已過期，或已被新的連結取代。請在擁有座位的裝置上產生新連結。",
    ja: "このリンクは使用済みか、期限切れか、新しいリンクに置き換えられています。席のある端末で新しいリンクを作ってください。",
  },
  too_many_devices: {
    en: "This seat is already played on 8 devices.",
    "zh-Hant": "這個座位已在 8 台裝置上使用。",
    ja: "この席はすでに8台の端末で使われています。",
  },
  not_room_creator: {
    en: "Only the room's creator can make a new invite.",
    "zh-Hant": "只有建立房間的人可以產生新的邀請。",
    ja: "新しい招待を作れるのはルームを作った人だけです。",
  },
  spectators_not_allowed: {
    en: "This room does not allow spectators.",
    "zh-Hant": "此房間不開放觀戰。",
    ja: "このルームは観戦できません。",
  },
  spectator_cannot_act: {
    en: "Spectators cannot act.",
    "zh-Hant": "觀戰者不能行動。",
    ja: "観戦者は行動できません。",
  },
  stale_action: {
    en: "The game moved on: decide again.",
    "zh-Hant": "遊戲已有變化，請重新決定。",
    ja: "ゲームが進みました。もう一度選んでください。",
  },
  bad_action_id: {
    en: "Bad action id.",
    "zh-Hant": "行動編號錯誤。",
    ja: "アクションIDが不正です。",
  },
  rate_limited: {
    en: "Too many messages: slow down.",
    "zh-Hant": "訊息太多，請放慢速度。",
    ja: "メッセージが多すぎます。少し間をおいてください。",
  },
  waiting_for_opponent: {
    en: "Wait for your opponent to join.",
    "zh-Hant": "請等待對手加入。",
    ja: "相手の参加を待ってください。",
  },
  game_not_over: {
    en: "The game is not over.",
    "zh-Hant": "遊戲尚未結束。",
    ja: "ゲームはまだ終わっていません。",
  },
  game_not_found: {
    en: "This room has no game with that number.",
    "zh-Hant": "這個房間沒有這一局。",
    ja: "このルームにその番号のゲームはありません。",
  },
  replay_not_revealed: {
    en: "The replay shows everything: both players must agree to reveal it first.",
    "zh-Hant": "重播會顯示所有資訊：必須雙方都同意公開。",
    ja: "リプレイはすべてを見せます。先に両プレイヤーが公開に同意する必要があります。",
  },
  replay_unavailable: {
    en: "This game was played before verifiable replays existed.",
    "zh-Hant": "這一局是在可驗證重播推出之前進行的。",
    ja: "このゲームは検証可能なリプレイの導入前に行われました。",
  },
  chat_not_allowed: {
    en: "You cannot write in that chat.",
    "zh-Hant": "你不能在這個聊天室發言。",
    ja: "そのチャットには書き込めません。",
  },
  bad_chat: {
    en: "The message was not sent: write 1 to 300 characters (spectators need a name).",
    "zh-Hant": "訊息未送出：請輸入 1 到 300 個字（觀戰者需要名稱）。",
    ja: "メッセージは送信されませんでした。1〜300文字で書いてください（観戦者は名前が必要です）。",
  },
  chat_rate_limited: {
    en: "Too many messages: wait a moment.",
    "zh-Hant": "訊息太多了，請稍候。",
    ja: "メッセージが多すぎます。少し待ってください。",
  },
  cannot_claim_win: {
    en: "You cannot claim the win now.",
    "zh-Hant": "現在不能宣告勝利。",
    ja: "今は勝利を宣言できません。",
  },
  not_found: {
    en: "Nothing is at this address.",
    "zh-Hant": "此網址沒有內容。",
    ja: "このアドレスには何もありません。",
  },
  method_not_allowed: {
    en: "The server does not take this request here.",
    "zh-Hant": "伺服器在此不接受這種請求。",
    ja: "サーバーはここでこの種類のリクエストを受け付けません。",
  },
  websocket_required: {
    en: "This address is for the game's live connection only.",
    "zh-Hant": "此網址僅供遊戲的即時連線使用。",
    ja: "このアドレスはゲームのリアルタイム接続専用です。",
  },
  origin_not_allowed: {
    en: "This page may not connect to the game server: open the game from its own site.",
    "zh-Hant": "此頁面不能連線到遊戲伺服器，請從遊戲的網站開啟。",
    ja: "このページはゲームサーバーに接続できません。ゲームのサイトから開いてください。",
  },
  storage_failed: {
    en: "The server could not save: try again.",
    "zh-Hant": "伺服器儲存失敗，請再試一次。",
    ja: "サーバーが保存できませんでした。もう一度お試しください。",
  },
  shutting_down: {
    en: "Reconnecting to the game server…",
    "zh-Hant": "正在重新連線至遊戲伺服器…",
    ja: "ゲームサーバーに再接続しています…",
  },
  // the rules engine's (proto/ACTIONS.md)
  game_over: {
    en: "The game is over.",
    "zh-Hant": "遊戲已結束。",
    ja: "ゲームは終了しています。",
  },
  wrong_phase: {
    en: "That does not belong to this phase.",
    "zh-Hant": "這個行動不屬於目前階段。",
    ja: "そのアクションは今のフェーズではできません。",
  },
  not_your_turn: {
    en: "It is not your turn.",
    "zh-Hant": "還沒輪到你。",
    ja: "あなたの手番ではありません。",
  },
  choice_pending: {
    en: "A choice must be answered first.",
    "zh-Hant": "必須先完成選擇。",
    ja: "先に選択を終えてください。",
  },
  no_pending_choice: {
    en: "There is no choice to answer.",
    "zh-Hant": "沒有需要回答的選擇。",
    ja: "答える選択はありません。",
  },
  not_your_choice: {
    en: "That choice is not yours.",
    "zh-Hant": "這不是你的選擇。",
    ja: "それはあなたの選択ではありません。",
  },
  choice_not_offered: {
    en: "That answer is not offered.",
    "zh-Hant": "沒有這個選項。",
    ja: "その答えは選べません。",
  },
  capacity_full: {
    en: "Your play area is full.",
    "zh-Hant": "你的遊戲區域已達容納上限。",
    ja: "プレイ・エリアが収容力に達しています。",
  },
  deck_empty: {
    en: "Your deck and discard pile are empty.",
    "zh-Hant": "你的資源牌堆和棄牌堆都是空的。",
    ja: "デッキと捨て札が空です。",
  },
  must_play_card: {
    en: "Your play area is empty: play a card.",
    "zh-Hant": "你的遊戲區域是空的：必須打出一張卡牌。",
    ja: "プレイ・エリアが空です。カードをプレイしてください。",
  },
  unknown_card: {
    en: "That card is not yours.",
    "zh-Hant": "那張卡牌不是你的。",
    ja: "それはあなたのカードではありません。",
  },
  card_not_in_play_area: {
    en: "That card is not in your play area.",
    "zh-Hant": "那張卡牌不在你的遊戲區域。",
    ja: "そのカードはプレイ・エリアにありません。",
  },
  card_not_ready: {
    en: "That card is not ready.",
    "zh-Hant": "那張卡牌不是豎置的。",
    ja: "そのカードは準備中ではありません。",
  },
  card_not_exhausted: {
    en: "That card is not exhausted.",
    "zh-Hant": "那張卡牌沒有橫置。",
    ja: "そのカードは疲弊していません。",
  },
  no_influence: {
    en: "You have no influence.",
    "zh-Hant": "你沒有影響力。",
    ja: "影響力がありません。",
  },
  invalid_character_choice: {
    en: "Choose exactly 4 of your characters.",
    "zh-Hant": "請剛好選擇 4 個你的角色。",
    ja: "自分のキャラクターをちょうど4枚選んでください。",
  },
  already_chosen: {
    en: "Already chosen.",
    "zh-Hant": "已經選過了。",
    ja: "すでに選択済みです。",
  },
  wait_for_located_strategy: {
    en: "The other strategy must be chosen and revealed first.",
    "zh-Hant": "必須先選擇並公開另一張戰略牌。",
    ja: "先にもう一方の戦略を選んで公開する必要があります。",
  },
  strategy_not_available: {
    en: "That strategy is not available.",
    "zh-Hant": "那張戰略牌無法使用。",
    ja: "その戦略カードは使えません。",
  },
  mail_disabled: {
    en: "This server sends no reminders by email.",
    "zh-Hant": "此伺服器不寄送電子郵件提醒。",
    ja: "このサーバーはメールでのお知らせを送りません。",
  },
  bad_email: {
    en: "That is not an email address reminders can be sent to.",
    "zh-Hant": "這不是可以寄送提醒的電子郵件地址。",
    ja: "お知らせを送れるメールアドレスではありません。",
  },
  mail_not_sent: {
    en: "The confirmation mail could not be sent. Try again later.",
    "zh-Hant": "無法寄出確認信，請稍後再試。",
    ja: "確認メールを送れませんでした。しばらくしてからもう一度お試しください。",
  },
  // the client's own
  network: {
    en: "The server cannot be reached.",
    "zh-Hant": "無法連上伺服器。",
    ja: "サーバーに接続できません。",
  },
  bad_response: {
    en: "The server's answer could not be read.",
    "zh-Hant": "無法讀取伺服器的回應。",
    ja: "サーバーの応答を読み取れませんでした。",
  },
};

function isKnown(code: string): code is ClientErrorCode {
  return Object.hasOwn(TEXTS, code);
}

/** The text for `code` in `lang`; for a code this build does not know, `fallback` (the server's message), else the code. */
export function errorText(lang: Lang, code: string, fallback: string): string {
  return isKnown(code) ? TEXTS[code][lang] : fallback || code;
}
