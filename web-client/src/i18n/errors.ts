// Error codes (PROTOCOL.md, ACTIONS.md) in each language. Unknown codes fall back to the server message.
import type { Lang } from "./names";

type T = [en: string, zh: string, ja: string];

const E: Record<string, T> = {
  bad_message: [
    "The server did not understand a message.",
    "伺服器無法理解訊息。",
    "サーバーがメッセージを理解できませんでした。",
  ],
  frame_too_large: ["A message was too large.", "訊息過大。", "メッセージが大きすぎます。"],
  version_mismatch: [
    "This page is out of date: reload it.",
    "此頁面版本過舊，請重新載入。",
    "このページは古くなっています。再読み込みしてください。",
  ],
  hello_expected: [
    "The connection was not set up correctly.",
    "連線設定不正確。",
    "接続が正しく確立されませんでした。",
  ],
  room_not_found: [
    "This room does not exist (or has expired).",
    "此房間不存在（或已過期）。",
    "このルームは存在しません（または期限切れです）。",
  ],
  too_many_rooms: [
    "Too many rooms created: wait a minute.",
    "建立太多房間，請稍候一分鐘。",
    "ルームの作成が多すぎます。1分待ってください。",
  ],
  bad_token: [
    "Your seat link is not valid for this room.",
    "你的座位連結對此房間無效。",
    "この席のリンクはこのルームでは無効です。",
  ],
  seat_taken: ["Both seats are already taken.", "兩個座位都已有人。", "両方の席がすでに埋まっています。"],
  spectators_not_allowed: [
    "This room does not allow spectators.",
    "此房間不開放觀戰。",
    "このルームは観戦できません。",
  ],
  spectator_cannot_act: ["Spectators cannot act.", "觀戰者不能行動。", "観戦者は行動できません。"],
  stale_action: [
    "The game moved on: decide again.",
    "遊戲已有變化，請重新決定。",
    "ゲームが進みました。もう一度選んでください。",
  ],
  bad_action_id: ["Bad action id.", "行動編號錯誤。", "アクションIDが不正です。"],
  rate_limited: ["Too many messages: slow down.", "訊息太多，請放慢。", "メッセージが多すぎます。"],
  waiting_for_opponent: ["Wait for your opponent to join.", "請等待對手加入。", "相手の参加を待ってください。"],
  game_not_over: ["The game is not over.", "遊戲尚未結束。", "ゲームはまだ終わっていません。"],
  cannot_claim_win: ["You cannot claim the win now.", "現在不能宣告勝利。", "今は勝利を宣言できません。"],
  storage_failed: [
    "The server could not save: try again.",
    "伺服器儲存失敗，請再試一次。",
    "サーバーが保存できませんでした。もう一度お試しください。",
  ],
  shutting_down: ["The server is restarting.", "伺服器正在重新啟動。", "サーバーが再起動中です。"],
  network: ["The server cannot be reached.", "無法連上伺服器。", "サーバーに接続できません。"],
  game_over: ["The game is over.", "遊戲已結束。", "ゲームは終了しています。"],
  wrong_phase: [
    "That does not belong to this phase.",
    "這個行動不屬於目前階段。",
    "そのアクションは今のフェーズではできません。",
  ],
  not_your_turn: ["It is not your turn.", "還沒輪到你。", "あなたの手番ではありません。"],
  choice_pending: ["A choice must be answered first.", "必須先完成選擇。", "先に選択を終えてください。"],
  no_pending_choice: ["There is no choice to answer.", "沒有需要回答的選擇。", "答える選択はありません。"],
  not_your_choice: ["That choice is not yours.", "這不是你的選擇。", "それはあなたの選択ではありません。"],
  choice_not_offered: ["That answer is not offered.", "沒有這個選項。", "その答えは選べません。"],
  capacity_full: ["Your play area is full.", "你的遊戲區域已達容納上限。", "プレイ・エリアが収容力に達しています。"],
  deck_empty: ["Your deck and discard pile are empty.", "你的資源牌堆和棄牌堆都是空的。", "デッキと捨て札が空です。"],
  must_play_card: [
    "Your play area is empty: play a card.",
    "你的遊戲區域是空的：必須打出一張卡牌。",
    "プレイ・エリアが空です。カードをプレイしてください。",
  ],
  unknown_card: ["That card is not yours.", "那張卡牌不是你的。", "それはあなたのカードではありません。"],
  card_not_in_play_area: [
    "That card is not in your play area.",
    "那張卡牌不在你的遊戲區域。",
    "そのカードはプレイ・エリアにありません。",
  ],
  card_not_ready: ["That card is not ready.", "那張卡牌不是豎置的。", "そのカードは準備中ではありません。"],
  card_not_exhausted: ["That card is not exhausted.", "那張卡牌沒有橫置。", "そのカードは疲弊していません。"],
  no_influence: ["You have no influence.", "你沒有影響力。", "影響力がありません。"],
  invalid_character_choice: [
    "Choose exactly 4 of your characters.",
    "請剛好選擇 4 個你的角色。",
    "自分のキャラクターをちょうど4枚選んでください。",
  ],
  already_chosen: ["Already chosen.", "已經選過了。", "すでに選択済みです。"],
  wait_for_located_strategy: [
    "The other strategy must be chosen and revealed first.",
    "必須先選擇並公開另一張戰略牌。",
    "先にもう一方の戦略を選んで公開する必要があります。",
  ],
  strategy_not_available: ["That strategy is not available.", "那張戰略牌無法使用。", "その戦略カードは使えません。"],
};

const IDX: Record<Lang, 0 | 1 | 2> = { en: 0, "zh-Hant": 1, ja: 2 };

export function errorText(lang: Lang, code: string, fallback: string): string {
  const row = E[code];
  return row ? row[IDX[lang]] : fallback || code;
}

export const ERROR_CODES = Object.keys(E);
