// Every text of the client in 繁體中文 (zh-Hant): one of the language packs (i18n/pack.ts says what a pack
// holds, i18n/packs.ts loads it only when a player reads the language). The names follow the
// glossary (docs/spec/glossary.md); the powers, strategies and effects paraphrase docs/spec/rules.md.
import { cardsIn } from "../../data/cards";
import { bothDeception, type Fmt, revealedSides } from "../log";
import type { Pack } from "../pack";
import { zhHant as messages } from "../zhHant";

const log: Fmt = (e, h) => {
  switch (e.type) {
    case "game_started":
      return `遊戲開始。`;
    case "characters_chosen":
      return `${h.side(e.faction)}選好角色${e.characters ? `：${cardsIn(e.characters).map(h.card).join("、")}` : ""}。`;
    case "deck_shuffled":
      return `${h.side(e.faction)}洗了資源牌堆。`;
    case "round_started":
      return `第 ${e.round} 回合：${h.event(e.event)}。`;
    case "strategy_chosen":
      return `${h.side(e.target)}的戰略牌已選${e.strategy ? `：${h.strategy(e.strategy)}` : ""}。`;
    case "struggle_started":
      return `對戰開始，${h.side(e.first)}先行動。`;
    case "card_played":
      return `${h.side(e.faction)}打出${h.card(e.card)}。`;
    case "discard_pile_under_deck":
      return `${h.side(e.faction)}的棄牌堆（${e.cards} 張）放到資源牌堆底部。`;
    case "power_used":
      return `${h.side(e.faction)}使用${h.card(e.card)}${e.banned ? "（被禁止：無效果）" : ""}。`;
    case "card_discarded":
      return `${h.side(e.by)}棄掉${h.card(e.card.card)}（${h.side(e.card.owner)}）。`;
    case "card_exhausted":
      return `${h.side(e.by)}橫置${h.card(e.card.card)}（${h.side(e.card.owner)}）。`;
    case "card_readied":
      return `${h.side(e.faction)}使用影響力重置${h.card(e.card)}。`;
    case "passed":
      return `${h.side(e.faction)}放棄行動。`;
    case "influence_gained":
      return `${h.side(e.faction)}獲得 ${e.amount} 影響力（共 ${e.total}）。`;
    case "influence_lost":
      return `${h.side(e.faction)}失去 ${e.amount} 影響力（剩 ${e.total}）。`;
    case "deck_looked":
      return `${h.side(e.by)}查看${h.side(e.deck)}資源牌堆的 ${e.count} 張${e.cards ? `：${cardsIn(e.cards).map(h.card).join("、")}` : ""}。`;
    case "deck_searched":
      return `${h.side(e.by)}搜尋了${h.side(e.deck)}的資源牌堆。`;
    case "card_on_top":
      return `${h.side(e.by)}將${h.card(e.card)}放到${h.side(e.deck)}牌堆頂。`;
    case "card_to_play_area":
      return `${h.card(e.card)}進入${h.side(e.faction)}的遊戲區域。`;
    case "character_to_reserve":
      return `${h.card(e.card)}進入${h.side(e.faction)}的儲備堆。`;
    case "reserve_to_deck":
      return `${h.card(e.card)}從${h.side(e.faction)}的儲備堆洗入資源牌堆。`;
    case "strategy_discarded":
      return `${h.side(e.by)}棄掉${h.side(e.faction)}的戰略牌${h.strategy(e.strategy)}。`;
    case "strategies_retrieved":
      return `${h.side(e.faction)}取回所有戰略牌。`;
    case "new_strategy_chosen":
      return `${h.side(e.faction)}選擇新的戰略牌${e.strategy ? `：${h.strategy(e.strategy)}` : ""}。`;
    case "struggle_ended":
      return e.reason === "both_passed" ? "雙方放棄行動：對戰結束。" : "對戰結束（行動上限）。";
    case "strategies_revealed":
      return `揭示戰略牌。${revealedSides(e, h, "：", "（超過任務點數，不生效）").join("；")}。${
        bothDeception(e) ? `雙方都選了${h.strategy("deception")}，皆不生效。` : ""
      }`;
    case "direct_assault":
      return `正面強攻：${h.side(e.faction)}總資源點數為 ${e.total}。`;
    case "round_decided":
      return e.result.winner
        ? `${h.side(e.result.winner)}贏得第 ${e.result.round} 回合。`
        : `第 ${e.result.round} 回合無人獲勝。`;
    case "event_won":
      return `${h.side(e.faction)}贏得${h.event(e.event)}：${e.vp} 勝利點數、${e.influence} 影響力。`;
    case "event_to_bottom":
      return `${h.event(e.event)}面朝下放到事件牌堆底部。`;
    case "events_reordered":
      return `${h.side(e.by)}重新排列了最上面 ${e.count} 張事件牌。`;
    case "modifier_set":
      return `${h.side(e.faction)}：下回合${h.modifier(e.modifier)}。`;
    case "balance_token":
      return e.moved ? `均勢標記移到${h.side(e.faction)}一方。` : `均勢標記留在${h.side(e.faction)}一方。`;
    case "strategy_used":
      return `${h.side(e.faction)}的戰略牌${h.strategy(e.strategy)}移到已使用的戰略牌。`;
    case "game_over":
      return e.outcome.winner ? `遊戲結束：${h.side(e.outcome.winner)}獲勝。` : "遊戲結束：平手。";
  }
};

export const pack: Pack = {
  messages,
  names: {
    characters: {
      // Rebel characters
      "Han Solo": "韓．索羅",
      Chewbacca: "丘巴卡",
      "Leia Organa": "莉亞公主",
      "R2-D2 and C-3PO": "R2-D2和C-3PO",
      "Luke Skywalker": "路克．天行者",
      "Lando Calrissian": "藍道．卡瑞森",
      "Obi-Wan Kenobi": "歐比王．肯諾比",
      Yoda: "尤達",
      // Imperial characters
      "General Veers": "維爾斯將軍",
      "Admiral Piett": "皮耶特將軍",
      "Grand Moff Tarkin": "大星區長塔金",
      "Emperor Palpatine": "帕爾帕庭",
      "Darth Vader": "達斯．維達",
      "Boba Fett": "波巴．費特",
      "IG-88": "IG-88",
      "Jabba the Hutt": "赫特人賈霸",
    },
    events: {
      // Events: Escape From Tatooine is the rulebooks'; the others are ours
      "Escape From Tatooine": "逃離塔圖因",
      "Acquire the Death Star Plans": "奪取死星設計圖",
      "Attack on Echo Base": "進攻回聲基地",
      "Balance of the Force": "原力平衡",
      "Battle of Endor": "恩多之戰",
      "Battle of Hoth": "霍斯之戰",
      "Battle of Yavin": "雅汶之戰",
      "Control of Endor": "控制恩多",
      "Create a Diversion": "聲東擊西",
      "Destroy the Shield Generator": "摧毀護盾產生器",
      "Diplomatic Freedom": "外交自由",
      "Display of Power": "展示武力",
      "Duel on Cloud City": "雲城決鬥",
      "Evacuation of Echo Base": "撤離回聲基地",
      "Fall of a Hero": "英雄殞落",
      "Heart of the Empire": "帝國心臟",
      "Locate the Rebel Base": "找出反抗軍基地",
      "Most Desperate Hour": "最危急的時刻",
      "Negotiate with the Hutts": "與赫特人談判",
      "Occupation of Cloud City": "佔領雲城",
      "Rebel Uprising": "反抗軍起義",
      "Rescue Mission to Cloud City": "雲城救援任務",
      "Securing the Rebel Base on Yavin 4": "鞏固雅汶4號反抗軍基地",
      "Ultimate Power in the Universe": "宇宙終極力量",
    },
    basicKinds: {
      military: "軍事",
      diplomacy: "外交",
      recon: "偵察",
      the_force: "原力",
    },
  },
  strategies: {
    deception: "謊言",
    direct_assault: "正面強攻",
    infiltration: "滲透",
    bureaucracy: "官僚體制",
    support: "支援",
  },
  powers: {
    military: "棄掉對手遊戲區域中的一張卡牌。",
    diplomacy: "棄掉你遊戲區域中的一張卡牌。",
    recon: "查看任一資源牌堆頂的 2 張卡牌：棄掉一張，另一張放回牌堆頂。",
    the_force: "橫置任一遊戲區域中一張豎置的卡牌，其能力不生效。",
    Chewbacca: "橫置對手遊戲區域中至多 2 張豎置的卡牌，它們的能力不生效。",
    "Han Solo": "從你的資源牌堆找出一張卡牌放入你的遊戲區域，然後將資源牌堆洗勻。",
    "Lando Calrissian": "棄掉你遊戲區域中任意張卡牌，再從資源牌堆打出同樣張數的卡牌。",
    "Leia Organa": "將你儲備堆中的一個角色放入遊戲區域，或洗入資源牌堆。",
    "Luke Skywalker": "棄掉你的一張卡牌、對手的一張卡牌，或各一張。",
    "Obi-Wan Kenobi": "將你棄牌堆的一張卡牌放入遊戲區域。",
    "R2-D2 and C-3PO": "棄掉你本回合選擇的戰略牌，並秘密選擇新的一張。",
    Yoda: "獲得 1 影響力。",
    "Admiral Piett": "將任一棄牌堆中的一張卡牌放到其擁有者的資源牌堆頂。",
    "Boba Fett": "棄掉對手的一張卡牌、橫置一張豎置的卡牌，或兩者皆做。",
    "Darth Vader": "棄掉任一遊戲區域中一張已橫置的卡牌；若是角色，則改放入其擁有者的儲備堆。",
    "Emperor Palpatine": "對手棄掉本回合選擇的戰略牌，並秘密選擇新的一張。",
    "General Veers": "棄掉你資源牌堆頂的卡牌；再棄掉對手遊戲區域中所有資源點數比它低的卡牌。",
    "Grand Moff Tarkin": "對手失去 2 影響力。",
    "IG-88": "從任一資源牌堆挑出 2 張卡牌：棄掉一張，洗牌後將另一張放在牌堆頂。",
    "Jabba the Hutt": "查看你資源牌堆頂的卡牌；你可以棄掉你遊戲區域中的一張卡牌，然後可以打出牌堆頂的卡牌。",
  },
  strategyTexts: {
    deception: "若雙方都未爆掉，原本落敗的一方反而獲勝。",
    direct_assault: "你的總資源點數 +2。",
    infiltration: "下回合由你選擇對手的戰略牌。",
    bureaucracy: "若你在本回合落敗，獲得 2 影響力。",
    support: "你可以將儲備堆的一個角色洗入資源牌堆。",
  },
  effects: {
    none: "沒有效果。",
    ban_diplomacy: "外交的能力不生效。",
    ban_recon: "偵察的能力不生效。",
    ban_military: "軍事的能力不生效。",
    ban_the_force: "原力的能力不生效。",
    ban_characters_except_luke_and_vader: "角色中只有路克．天行者與達斯．維達的能力生效。",
    loser_loses_two_influence: "落敗方失去 2 影響力。",
    winner_reorders_top_three_events: "獲勝方可重新排列最上面 3 張事件牌。",
    loser_strategy_random_next_round: "下回合落敗方的戰略牌隨機抽出。",
    winner_discards_loser_unused_strategy: "獲勝方棄掉落敗方一張未使用的戰略牌。",
    loser_moves_character_to_reserve: "落敗方將自己的一個角色移到自己的儲備堆。",
    winner_moves_character_to_reserve: "獲勝方將自己的一個角色移到自己的儲備堆。",
    loser_strategy_first_next_round: "下回合落敗方先選擇並公開戰略牌。",
    winner_may_add_reserve_character: "獲勝方可將儲備堆的一個角色洗入資源牌堆。",
    winner_retrieves_all_strategies: "獲勝方取回所有已使用的戰略牌。",
  },
  errors: {
    // protocol and rooms (proto/PROTOCOL.md)
    bad_message: "伺服器無法理解訊息。",
    frame_too_large: "訊息過大。",
    version_mismatch: "此頁面版本過舊，請重新載入。",
    hello_expected: "連線設定不正確。",
    hello_repeated: "此連線已經建立。",
    room_not_found: "此房間不存在（或已過期）。",
    too_many_rooms: "建立太多房間，請稍候一分鐘。",
    bad_token: "你的座位連結對此房間無效。",
    seat_taken: "兩個座位都已有人。",
    bad_join_code: "加入碼不正確。請向建立房間的人確認（6 位數字）。",
    too_many_join_attempts: "嘗試加入碼的次數過多。請稍候一分鐘，或向建立房間的人索取邀請連結或新的加入碼。",
    bad_name: "名字須為 1 到 24 個字，且只有一行。",
    transfer_link_invalid: "此連結已使用過、已過期，或已被新的連結取代。請在擁有座位的裝置上產生新連結。",
    too_many_devices: "這個座位已在 8 台裝置上使用。",
    not_room_creator: "只有建立房間的人可以產生新的邀請。",
    spectators_not_allowed: "此房間不開放觀戰。",
    spectator_cannot_act: "觀戰者不能行動。",
    stale_action: "遊戲已有變化，請重新決定。",
    bad_action_id: "行動編號錯誤。",
    rate_limited: "請求太多，請放慢速度。",
    waiting_for_opponent: "請等待對手加入。",
    game_not_over: "遊戲尚未結束。",
    game_not_found: "這個房間沒有這一局。",
    replay_not_revealed: "重播會顯示所有資訊：必須雙方都同意公開。",
    replay_unavailable: "這一局是在可驗證重播推出之前進行的。",
    chat_not_allowed: "你不能在這個聊天室發言。",
    bad_chat: "訊息未送出：請輸入 1 到 300 個字（觀戰者需要名稱）。",
    chat_rate_limited: "訊息太多了，請稍候。",
    cannot_claim_win: "現在不能宣告勝利。",
    not_found: "此網址沒有內容。",
    method_not_allowed: "伺服器在此不接受這種請求。",
    websocket_required: "此網址僅供遊戲的即時連線使用。",
    origin_not_allowed: "此頁面不能連線到遊戲伺服器，請從遊戲的網站開啟。",
    storage_failed: "伺服器儲存失敗，請再試一次。",
    shutting_down: "正在重新連線至遊戲伺服器…",
    // the rules engine's (proto/ACTIONS.md)
    game_over: "遊戲已結束。",
    wrong_phase: "這個行動不屬於目前階段。",
    not_your_turn: "還沒輪到你。",
    choice_pending: "必須先完成選擇。",
    no_pending_choice: "沒有需要回答的選擇。",
    not_your_choice: "這不是你的選擇。",
    choice_not_offered: "沒有這個選項。",
    capacity_full: "你的遊戲區域已達容納上限。",
    deck_empty: "你的資源牌堆和棄牌堆都是空的。",
    must_play_card: "你的遊戲區域是空的：必須打出一張卡牌。",
    unknown_card: "那張卡牌不是你的。",
    card_not_in_play_area: "那張卡牌不在你的遊戲區域。",
    card_not_ready: "那張卡牌不是豎置的。",
    card_not_exhausted: "那張卡牌沒有橫置。",
    no_influence: "你沒有影響力。",
    invalid_character_choice: "請剛好選擇 4 個你的角色。",
    already_chosen: "已經選過了。",
    wait_for_located_strategy: "必須先選擇並公開另一張戰略牌。",
    strategy_not_available: "那張戰略牌無法使用。",
    mail_disabled: "此伺服器不寄送電子郵件提醒。",
    bad_email: "這不是可以寄送提醒的電子郵件地址。",
    mail_not_sent: "無法寄出確認信，請稍後再試。",
    // the client's own
    network: "無法連上伺服器。",
    bad_response: "無法讀取伺服器的回應。",
  },
  log,
};
