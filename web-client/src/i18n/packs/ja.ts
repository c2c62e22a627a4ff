// Every text of the client in 日本語 (ja): one of the language packs (i18n/pack.ts says what a pack
// holds, i18n/packs.ts loads it only when a player reads the language). The names follow the
// glossary (docs/spec/glossary.md); the powers, strategies and effects paraphrase docs/spec/rules.md.
import { cardsIn } from "../../data/cards";
import { ja as messages } from "../ja";
import { bothDeception, type Fmt, revealedSides } from "../log";
import type { Pack } from "../pack";

const log: Fmt = (e, h) => {
  switch (e.type) {
    case "game_started":
      return `ゲーム開始。`;
    case "characters_chosen":
      return `${h.side(e.faction)}がキャラクターを選択${e.characters ? `：${cardsIn(e.characters).map(h.card).join("、")}` : ""}。`;
    case "deck_shuffled":
      return `${h.side(e.faction)}のデッキをシャッフルした。`;
    case "round_started":
      return `ラウンド ${e.round}：${h.event(e.event)}。`;
    case "strategy_chosen":
      return `${h.side(e.target)}の戦略が選ばれた${e.strategy ? `：${h.strategy(e.strategy)}` : ""}。`;
    case "struggle_started":
      return `紛争開始。${h.side(e.first)}が先手。`;
    case "card_played":
      return `${h.side(e.faction)}が${h.card(e.card)}をプレイ。`;
    case "discard_pile_under_deck":
      return `${h.side(e.faction)}の捨て札（${e.cards}枚）をデッキの下に置いた。`;
    case "power_used":
      return `${h.side(e.faction)}が${h.card(e.card)}のパワーを使用${e.banned ? "（禁止：効果なし）" : ""}。`;
    case "card_discarded":
      return `${h.side(e.by)}が${h.card(e.card.card)}（${h.side(e.card.owner)}）を捨てた。`;
    case "card_exhausted":
      return `${h.side(e.by)}が${h.card(e.card.card)}（${h.side(e.card.owner)}）を疲弊させた。`;
    case "card_readied":
      return `${h.side(e.faction)}が影響力を費やし${h.card(e.card)}を準備中にした。`;
    case "passed":
      return `${h.side(e.faction)}がパス。`;
    case "influence_gained":
      return `${h.side(e.faction)}が影響力を ${e.amount} 得た（${e.total}）。`;
    case "influence_lost":
      return `${h.side(e.faction)}が影響力を ${e.amount} 失った（${e.total}）。`;
    case "deck_looked":
      return `${h.side(e.by)}が${h.side(e.deck)}のデッキを上から${e.count}枚見た${e.cards ? `：${cardsIn(e.cards).map(h.card).join("、")}` : ""}。`;
    case "deck_searched":
      return `${h.side(e.by)}が${h.side(e.deck)}のデッキを探した。`;
    case "card_on_top":
      return `${h.side(e.by)}が${h.card(e.card)}を${h.side(e.deck)}のデッキの一番上に置いた。`;
    case "card_to_play_area":
      return `${h.card(e.card)}が${h.side(e.faction)}のプレイ・エリアに入った。`;
    case "character_to_reserve":
      return `${h.card(e.card)}が${h.side(e.faction)}の予備へ。`;
    case "reserve_to_deck":
      return `${h.card(e.card)}が${h.side(e.faction)}の予備からデッキへ。`;
    case "strategy_discarded":
      return `${h.side(e.by)}が${h.side(e.faction)}の戦略${h.strategy(e.strategy)}を捨てた。`;
    case "strategies_retrieved":
      return `${h.side(e.faction)}が戦略カードをすべて取り戻した。`;
    case "new_strategy_chosen":
      return `${h.side(e.faction)}が新しい戦略を選んだ${e.strategy ? `：${h.strategy(e.strategy)}` : ""}。`;
    case "struggle_ended":
      return e.reason === "both_passed" ? "両者パス：紛争終了。" : "紛争終了（アクション上限）。";
    case "strategies_revealed":
      return `戦略を明かした。${revealedSides(e, h, "：", "（目標値を超えたため解決しない）").join("、")}。${
        bothDeception(e) ? `両者とも${h.strategy("deception")}を選んだため、どちらも解決しない。` : ""
      }`;
    case "direct_assault":
      return `直接攻撃：${h.side(e.faction)}の総リソース値は ${e.total}。`;
    case "round_decided":
      return e.result.winner
        ? `${h.side(e.result.winner)}がラウンド ${e.result.round} に勝利。`
        : `ラウンド ${e.result.round} は勝者なし。`;
    case "event_won":
      return `${h.side(e.faction)}が${h.event(e.event)}を獲得：勝利ポイント ${e.vp}、影響力 ${e.influence}。`;
    case "event_to_bottom":
      return `${h.event(e.event)}を裏向きでイベント・デッキの一番下へ。`;
    case "events_reordered":
      return `${h.side(e.by)}がイベント・デッキの上${e.count}枚を並べ替えた。`;
    case "modifier_set":
      return `${h.side(e.faction)}：次のラウンド${h.modifier(e.modifier)}。`;
    case "balance_token":
      return e.moved
        ? `バランス・トークンが${h.side(e.faction)}側へ移った。`
        : `バランス・トークンは${h.side(e.faction)}側のまま。`;
    case "strategy_used":
      return `${h.side(e.faction)}の戦略${h.strategy(e.strategy)}は使用済みになった。`;
    case "game_over":
      return e.outcome.winner ? `ゲーム終了：${h.side(e.outcome.winner)}の勝利。` : "ゲーム終了：引き分け。";
  }
};

export const pack: Pack = {
  messages,
  names: {
    characters: {
      // Rebel characters
      "Han Solo": "ハン・ソロ",
      Chewbacca: "チューバッカ",
      "Leia Organa": "レイア・オーガナ",
      "R2-D2 and C-3PO": "R2-D2とC-3PO",
      "Luke Skywalker": "ルーク・スカイウォーカー",
      "Lando Calrissian": "ランド・カルリジアン",
      "Obi-Wan Kenobi": "オビ＝ワン・ケノービ",
      Yoda: "ヨーダ",
      // Imperial characters
      "General Veers": "ヴィアーズ将軍",
      "Admiral Piett": "ピエット提督",
      "Grand Moff Tarkin": "ターキン総督",
      "Emperor Palpatine": "パルパティン皇帝",
      "Darth Vader": "ダース・ベイダー",
      "Boba Fett": "ボバ・フェット",
      "IG-88": "IG-88",
      "Jabba the Hutt": "ジャバ・ザ・ハット",
    },
    events: {
      // Events: Escape From Tatooine is the rulebooks'; the others are ours
      "Escape From Tatooine": "タトゥーインから脱出",
      "Acquire the Death Star Plans": "デス・スターの設計図入手",
      "Attack on Echo Base": "エコー基地攻撃",
      "Balance of the Force": "フォースのバランス",
      "Battle of Endor": "エンドアの戦い",
      "Battle of Hoth": "ホスの戦い",
      "Battle of Yavin": "ヤヴィンの戦い",
      "Control of Endor": "エンドアの支配",
      "Create a Diversion": "陽動作戦",
      "Destroy the Shield Generator": "シールド発生装置の破壊",
      "Diplomatic Freedom": "外交の自由",
      "Display of Power": "力の誇示",
      "Duel on Cloud City": "クラウド・シティの決闘",
      "Evacuation of Echo Base": "エコー基地からの撤退",
      "Fall of a Hero": "英雄の失墜",
      "Heart of the Empire": "帝国の中枢",
      "Locate the Rebel Base": "反乱軍基地の発見",
      "Most Desperate Hour": "最大の危機",
      "Negotiate with the Hutts": "ハットとの交渉",
      "Occupation of Cloud City": "クラウド・シティ占領",
      "Rebel Uprising": "反乱軍の蜂起",
      "Rescue Mission to Cloud City": "クラウド・シティ救出作戦",
      "Securing the Rebel Base on Yavin 4": "ヤヴィン4の反乱軍基地確保",
      "Ultimate Power in the Universe": "宇宙最強の力",
    },
    basicKinds: {
      military: "軍事",
      diplomacy: "外交",
      recon: "偵察",
      the_force: "フォース",
    },
  },
  strategies: {
    deception: "欺瞞",
    direct_assault: "直接攻撃",
    infiltration: "潜入",
    bureaucracy: "官僚主義",
    support: "支援",
  },
  powers: {
    military: "相手のプレイ・エリアのカードを1枚捨てる。",
    diplomacy: "自分のプレイ・エリアのカードを1枚捨てる。",
    recon: "どちらかのデッキの上から2枚を見て、1枚を捨て、もう1枚を一番上に戻す。",
    the_force: "どちらかのプレイ・エリアの準備中のカードを1枚疲弊させる。そのパワーは解決しない。",
    Chewbacca: "相手のプレイ・エリアの準備中のカードを2枚まで疲弊させる。それらのパワーは解決しない。",
    "Han Solo": "自分のデッキからカードを1枚探してプレイ・エリアに置き、デッキをシャッフルする。",
    "Lando Calrissian": "自分のプレイ・エリアのカードを好きな枚数捨て、同じ枚数をデッキからプレイする。",
    "Leia Organa": "予備のキャラクター1枚をプレイ・エリアに置くか、デッキに加えてシャッフルする。",
    "Luke Skywalker": "自分のカード1枚、相手のカード1枚、またはその両方を捨てる。",
    "Obi-Wan Kenobi": "自分の捨て札からカードを1枚プレイ・エリアに置く。",
    "R2-D2 and C-3PO": "自分がこのラウンドに選んだ戦略カードを捨て、新しい戦略カードを秘密裏に選ぶ。",
    Yoda: "影響力を1得る。",
    "Admiral Piett": "どちらかの捨て札からカードを1枚選び、持ち主のデッキの一番上に置く。",
    "Boba Fett": "相手のカードを1枚捨てるか、準備中のカードを1枚疲弊させるか、またはその両方を行う。",
    "Darth Vader": "どちらかのプレイ・エリアの疲弊したカードを1枚捨てる。キャラクターなら代わりに持ち主の予備に置く。",
    "Emperor Palpatine": "相手はこのラウンドに選んだ戦略カードを捨て、新しい戦略カードを秘密裏に選ぶ。",
    "General Veers": "自分のデッキの一番上のカードを捨て、それよりリソース値の低い相手のカードをすべて捨てる。",
    "Grand Moff Tarkin": "相手は影響力を2失う。",
    "IG-88": "どちらかのデッキから2枚を選び、1枚を捨て、デッキをシャッフルしてもう1枚を一番上に置く。",
    "Jabba the Hutt":
      "自分のデッキの一番上のカードを見る。自分のプレイ・エリアのカードを1枚捨ててもよい。その後、一番上のカードをプレイしてもよい。",
  },
  strategyTexts: {
    deception: "どちらもバーストしていなければ、本来の敗者が代わりに勝つ。",
    direct_assault: "総リソース値に2を加える。",
    infiltration: "次のラウンド、相手の戦略カードをあなたが選ぶ。",
    bureaucracy: "このラウンドに負けたら影響力を2得る。",
    support: "予備のキャラクター1枚をデッキに加えてシャッフルしてもよい。",
  },
  effects: {
    none: "効果なし。",
    ban_diplomacy: "外交のパワーは解決しない。",
    ban_recon: "偵察のパワーは解決しない。",
    ban_military: "軍事のパワーは解決しない。",
    ban_the_force: "フォースのパワーは解決しない。",
    ban_characters_except_luke_and_vader:
      "キャラクターはルーク・スカイウォーカーとダース・ベイダーのパワーだけが解決する。",
    loser_loses_two_influence: "敗者は影響力を2失う。",
    winner_reorders_top_three_events: "勝者はイベント・デッキの上3枚を好きな順番に並べ替えてもよい。",
    loser_strategy_random_next_round: "次のラウンド、敗者の戦略カードはランダムに引かれる。",
    winner_discards_loser_unused_strategy: "勝者は敗者の未使用の戦略カードを1枚捨てる。",
    loser_moves_character_to_reserve: "敗者は自分のキャラクター1枚を自分の予備に移す。",
    winner_moves_character_to_reserve: "勝者は自分のキャラクター1枚を自分の予備に移す。",
    loser_strategy_first_next_round: "次のラウンド、敗者は先に戦略カードを選んで公開する。",
    winner_may_add_reserve_character: "勝者は予備のキャラクター1枚をデッキに加えてシャッフルしてもよい。",
    winner_retrieves_all_strategies: "勝者は使用済みの戦略カードをすべて取り戻す。",
  },
  errors: {
    // protocol and rooms (proto/PROTOCOL.md)
    bad_message: "サーバーがメッセージを理解できませんでした。",
    frame_too_large: "メッセージが大きすぎます。",
    version_mismatch: "このページは古くなっています。再読み込みしてください。",
    hello_expected: "接続が正しく確立されませんでした。",
    hello_repeated: "この接続はすでに確立されています。",
    room_not_found: "このルームは存在しません（または期限切れです）。",
    too_many_rooms: "ルームの作成が多すぎます。1分待ってください。",
    bad_token: "この席のリンクはこのルームでは無効です。",
    seat_taken: "両方の席がすでに埋まっています。",
    bad_join_code: "参加コードが違います。ルームを作った人に確認してください（6桁）。",
    too_many_join_attempts:
      "参加コードの試行が多すぎます。1分待つか、ルームを作った人に招待リンクか新しい参加コードをもらってください。",
    bad_name: "名前は1〜24文字で、1行にしてください。",
    transfer_link_invalid:
      "このリンクは使用済みか、期限切れか、新しいリンクに置き換えられています。席のある端末で新しいリンクを作ってください。",
    too_many_devices: "この席はすでに8台の端末で使われています。",
    not_room_creator: "新しい招待を作れるのはルームを作った人だけです。",
    spectators_not_allowed: "このルームは観戦できません。",
    spectator_cannot_act: "観戦者は行動できません。",
    stale_action: "ゲームが進みました。もう一度選んでください。",
    bad_action_id: "アクションIDが不正です。",
    rate_limited: "リクエストが多すぎます。少し間をおいてください。",
    waiting_for_opponent: "相手の参加を待ってください。",
    game_not_over: "ゲームはまだ終わっていません。",
    game_not_found: "このルームにその番号のゲームはありません。",
    replay_not_revealed: "リプレイはすべてを見せます。先に両プレイヤーが公開に同意する必要があります。",
    replay_unavailable: "このゲームは検証可能なリプレイの導入前に行われました。",
    chat_not_allowed: "そのチャットには書き込めません。",
    bad_chat: "メッセージは送信されませんでした。1〜300文字で書いてください（観戦者は名前が必要です）。",
    chat_rate_limited: "メッセージが多すぎます。少し待ってください。",
    cannot_claim_win: "今は勝利を宣言できません。",
    not_found: "このアドレスには何もありません。",
    method_not_allowed: "サーバーはここでこの種類のリクエストを受け付けません。",
    websocket_required: "このアドレスはゲームのリアルタイム接続専用です。",
    origin_not_allowed: "このページはゲームサーバーに接続できません。ゲームのサイトから開いてください。",
    storage_failed: "サーバーが保存できませんでした。もう一度お試しください。",
    shutting_down: "ゲームサーバーに再接続しています…",
    // the rules engine's (proto/ACTIONS.md)
    game_over: "ゲームは終了しています。",
    wrong_phase: "そのアクションは今のフェーズではできません。",
    not_your_turn: "あなたの手番ではありません。",
    choice_pending: "先に選択を終えてください。",
    no_pending_choice: "答える選択はありません。",
    not_your_choice: "それはあなたの選択ではありません。",
    choice_not_offered: "その答えは選べません。",
    capacity_full: "プレイ・エリアが収容力に達しています。",
    deck_empty: "デッキと捨て札が空です。",
    must_play_card: "プレイ・エリアが空です。カードをプレイしてください。",
    unknown_card: "それはあなたのカードではありません。",
    card_not_in_play_area: "そのカードはプレイ・エリアにありません。",
    card_not_ready: "そのカードは準備中ではありません。",
    card_not_exhausted: "そのカードは疲弊していません。",
    no_influence: "影響力がありません。",
    invalid_character_choice: "自分のキャラクターをちょうど4枚選んでください。",
    already_chosen: "すでに選択済みです。",
    wait_for_located_strategy: "先にもう一方の戦略を選んで公開する必要があります。",
    strategy_not_available: "その戦略カードは使えません。",
    mail_disabled: "このサーバーはメールでのお知らせを送りません。",
    bad_email: "お知らせを送れるメールアドレスではありません。",
    mail_not_sent: "確認メールを送れませんでした。しばらくしてからもう一度お試しください。",
    // the client's own
    network: "サーバーに接続できません。",
    bad_response: "サーバーの応答を読み取れませんでした。",
  },
  log,
};
