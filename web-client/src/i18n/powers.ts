// One-line paraphrases of powers, strategies and event effects (from docs/spec/rules.md R-6..R-8),
// keyed by the generated unions: a new character, strategy, effect or language fails `typecheck` here.
import type { PowerKey } from "../data/cards";
import type { EventEffect, Strategy } from "../net/protocol";
import type { Lang } from "./langs";

type T = { readonly [L in Lang]: string };

/** Basic cards by their kind, characters by their name. */
const POWERS: { readonly [K in PowerKey]: T } = {
  military: {
    en: "Discard a card from the opponent's play area.",
    "zh-Hant": "棄掉對手遊戲區域中的一張卡牌。",
    ja: "相手のプレイ・エリアのカードを1枚捨てる。",
  },
  diplomacy: {
    en: "Discard a card from your own play area.",
    "zh-Hant": "棄掉你遊戲區域中的一張卡牌。",
    ja: "自分のプレイ・エリアのカードを1枚捨てる。",
  },
  recon: {
    en: "Look at the top 2 cards of either deck: discard one, put the other back on top.",
    "zh-Hant": "查看任一資源牌堆頂的 2 張卡牌：棄掉一張，另一張放回牌堆頂。",
    ja: "どちらかのデッキの上から2枚を見て、1枚を捨て、もう1枚を一番上に戻す。",
  },
  the_force: {
    en: "Exhaust a ready card in either play area; its power does not resolve.",
    "zh-Hant": "橫置任一遊戲區域中一張豎置的卡牌，其能力不生效。",
    ja: "どちらかのプレイ・エリアの準備中のカードを1枚疲弊させる。そのパワーは解決しない。",
  },
  Chewbacca: {
    en: "Exhaust up to 2 ready opposing cards; their powers do not resolve.",
    "zh-Hant": "橫置對手遊戲區域中至多 2 張豎置的卡牌，它們的能力不生效。",
    ja: "相手のプレイ・エリアの準備中のカードを2枚まで疲弊させる。それらのパワーは解決しない。",
  },
  "Han Solo": {
    en: "Search your deck for a card and put it into your play area; shuffle your deck.",
    "zh-Hant": "從你的資源牌堆找出一張卡牌放入你的遊戲區域，然後將資源牌堆洗勻。",
    ja: "自分のデッキからカードを1枚探してプレイ・エリアに置き、デッキをシャッフルする。",
  },
  "Lando Calrissian": {
    en: "Discard any number of your cards, then play that many from your deck.",
    "zh-Hant": "棄掉你遊戲區域中任意張卡牌，再從資源牌堆打出同樣張數的卡牌。",
    ja: "自分のプレイ・エリアのカードを好きな枚数捨て、同じ枚数をデッキからプレイする。",
  },
  "Leia Organa": {
    en: "Put a reserve character into your play area, or shuffle it into your deck.",
    "zh-Hant": "將你儲備堆中的一個角色放入遊戲區域，或洗入資源牌堆。",
    ja: "予備のキャラクター1枚をプレイ・エリアに置くか、デッキに加えてシャッフルする。",
  },
  "Luke Skywalker": {
    en: "Discard one of your cards, one of the opponent's, or both.",
    "zh-Hant": "棄掉你的一張卡牌、對手的一張卡牌，或各一張。",
    ja: "自分のカード1枚、相手のカード1枚、またはその両方を捨てる。",
  },
  "Obi-Wan Kenobi": {
    en: "Put a card from your discard pile into your play area.",
    "zh-Hant": "將你棄牌堆的一張卡牌放入遊戲區域。",
    ja: "自分の捨て札からカードを1枚プレイ・エリアに置く。",
  },
  "R2-D2 and C-3PO": {
    en: "Discard your chosen strategy and secretly choose a new one.",
    "zh-Hant": "棄掉你本回合選擇的戰略牌，並秘密選擇新的一張。",
    ja: "自分がこのラウンドに選んだ戦略カードを捨て、新しい戦略カードを秘密裏に選ぶ。",
  },
  Yoda: { en: "Gain 1 influence.", "zh-Hant": "獲得 1 影響力。", ja: "影響力を1得る。" },
  "Admiral Piett": {
    en: "Put a card from either discard pile on top of its owner's deck.",
    "zh-Hant": "將任一棄牌堆中的一張卡牌放到其擁有者的資源牌堆頂。",
    ja: "どちらかの捨て札からカードを1枚選び、持ち主のデッキの一番上に置く。",
  },
  "Boba Fett": {
    en: "Discard an opposing card, exhaust a ready card, or both.",
    "zh-Hant": "棄掉對手的一張卡牌、橫置一張豎置的卡牌，或兩者皆做。",
    ja: "相手のカードを1枚捨てるか、準備中のカードを1枚疲弊させるか、またはその両方を行う。",
  },
  "Darth Vader": {
    en: "Discard an exhausted card from either play area; a character goes to its owner's reserve instead.",
    "zh-Hant": "棄掉任一遊戲區域中一張已橫置的卡牌；若是角色，則改放入其擁有者的儲備堆。",
    ja: "どちらかのプレイ・エリアの疲弊したカードを1枚捨てる。キャラクターなら代わりに持ち主の予備に置く。",
  },
  "Emperor Palpatine": {
    en: "The opponent discards their chosen strategy and secretly chooses a new one.",
    "zh-Hant": "對手棄掉本回合選擇的戰略牌，並秘密選擇新的一張。",
    ja: "相手はこのラウンドに選んだ戦略カードを捨て、新しい戦略カードを秘密裏に選ぶ。",
  },
  "General Veers": {
    en: "Discard your top card; discard all opposing cards worth less than it.",
    "zh-Hant": "棄掉你資源牌堆頂的卡牌；再棄掉對手遊戲區域中所有資源點數比它低的卡牌。",
    ja: "自分のデッキの一番上のカードを捨て、それよりリソース値の低い相手のカードをすべて捨てる。",
  },
  "Grand Moff Tarkin": {
    en: "The opponent loses 2 influence.",
    "zh-Hant": "對手失去 2 影響力。",
    ja: "相手は影響力を2失う。",
  },
  "IG-88": {
    en: "Pick 2 cards from either deck: discard one, shuffle, put the other on top.",
    "zh-Hant": "從任一資源牌堆挑出 2 張卡牌：棄掉一張，洗牌後將另一張放在牌堆頂。",
    ja: "どちらかのデッキから2枚を選び、1枚を捨て、デッキをシャッフルしてもう1枚を一番上に置く。",
  },
  "Jabba the Hutt": {
    en: "Look at your top card; you may discard one of your cards, then you may play the top card.",
    "zh-Hant": "查看你資源牌堆頂的卡牌；你可以棄掉你遊戲區域中的一張卡牌，然後可以打出牌堆頂的卡牌。",
    ja: "自分のデッキの一番上のカードを見る。自分のプレイ・エリアのカードを1枚捨ててもよい。その後、一番上のカードをプレイしてもよい。",
  },
};

const STRATEGY_TEXT: { readonly [S in Strategy]: T } = {
  deception: {
    en: "If neither is bust, the would-be loser wins instead.",
    "zh-Hant": "若雙方都未爆掉，原本落敗的一方反而獲勝。",
    ja: "どちらもバーストしていなければ、本来の敗者が代わりに勝つ。",
  },
  direct_assault: { en: "Add 2 to your total.", "zh-Hant": "你的總資源點數 +2。", ja: "総リソース値に2を加える。" },
  infiltration: {
    en: "Next round you choose the opponent's strategy.",
    "zh-Hant": "下回合由你選擇對手的戰略牌。",
    ja: "次のラウンド、相手の戦略カードをあなたが選ぶ。",
  },
  bureaucracy: {
    en: "If you lose the round, gain 2 influence.",
    "zh-Hant": "若你在本回合落敗，獲得 2 影響力。",
    ja: "このラウンドに負けたら影響力を2得る。",
  },
  support: {
    en: "You may shuffle a reserve character into your deck.",
    "zh-Hant": "你可以將儲備堆的一個角色洗入資源牌堆。",
    ja: "予備のキャラクター1枚をデッキに加えてシャッフルしてもよい。",
  },
};

const EFFECT_TEXT: { readonly [E in EventEffect]: T } = {
  none: { en: "No effect.", "zh-Hant": "沒有效果。", ja: "効果なし。" },
  ban_diplomacy: {
    en: "Diplomacy powers do not resolve.",
    "zh-Hant": "外交的能力不生效。",
    ja: "外交のパワーは解決しない。",
  },
  ban_recon: { en: "Recon powers do not resolve.", "zh-Hant": "偵察的能力不生效。", ja: "偵察のパワーは解決しない。" },
  ban_military: {
    en: "Military powers do not resolve.",
    "zh-Hant": "軍事的能力不生效。",
    ja: "軍事のパワーは解決しない。",
  },
  ban_the_force: {
    en: "The Force powers do not resolve.",
    "zh-Hant": "原力的能力不生效。",
    ja: "フォースのパワーは解決しない。",
  },
  ban_characters_except_luke_and_vader: {
    en: "Only Luke Skywalker and Darth Vader powers resolve among characters.",
    "zh-Hant": "角色中只有路克．天行者與達斯．維達的能力生效。",
    ja: "キャラクターはルーク・スカイウォーカーとダース・ベイダーのパワーだけが解決する。",
  },
  loser_loses_two_influence: {
    en: "The loser loses 2 influence.",
    "zh-Hant": "落敗方失去 2 影響力。",
    ja: "敗者は影響力を2失う。",
  },
  winner_reorders_top_three_events: {
    en: "The winner may reorder the top 3 events.",
    "zh-Hant": "獲勝方可重新排列最上面 3 張事件牌。",
    ja: "勝者はイベント・デッキの上3枚を好きな順番に並べ替えてもよい。",
  },
  loser_strategy_random_next_round: {
    en: "Next round the loser's strategy is drawn at random.",
    "zh-Hant": "下回合落敗方的戰略牌隨機抽出。",
    ja: "次のラウンド、敗者の戦略カードはランダムに引かれる。",
  },
  winner_discards_loser_unused_strategy: {
    en: "The winner discards one of the loser's unused strategies.",
    "zh-Hant": "獲勝方棄掉落敗方一張未使用的戰略牌。",
    ja: "勝者は敗者の未使用の戦略カードを1枚捨てる。",
  },
  loser_moves_character_to_reserve: {
    en: "The loser moves one of their characters to their reserve.",
    "zh-Hant": "落敗方將自己的一個角色移到自己的儲備堆。",
    ja: "敗者は自分のキャラクター1枚を自分の予備に移す。",
  },
  winner_moves_character_to_reserve: {
    en: "The winner moves one of their characters to their reserve.",
    "zh-Hant": "獲勝方將自己的一個角色移到自己的儲備堆。",
    ja: "勝者は自分のキャラクター1枚を自分の予備に移す。",
  },
  loser_strategy_first_next_round: {
    en: "Next round the loser chooses and reveals their strategy first.",
    "zh-Hant": "下回合落敗方先選擇並公開戰略牌。",
    ja: "次のラウンド、敗者は先に戦略カードを選んで公開する。",
  },
  winner_may_add_reserve_character: {
    en: "The winner may shuffle a reserve character into their deck.",
    "zh-Hant": "獲勝方可將儲備堆的一個角色洗入資源牌堆。",
    ja: "勝者は予備のキャラクター1枚をデッキに加えてシャッフルしてもよい。",
  },
  winner_retrieves_all_strategies: {
    en: "The winner takes back all their used strategies.",
    "zh-Hant": "獲勝方取回所有已使用的戰略牌。",
    ja: "勝者は使用済みの戦略カードをすべて取り戻す。",
  },
};

// The lookups tolerate what a newer server may send and this build does not know.

/** A card's power (`null`: a card this build does not know). */
export function powerIn(lang: Lang, key: PowerKey | null): string {
  return key === null ? "" : (POWERS[key]?.[lang] ?? "");
}

export function strategyTextIn(lang: Lang, s: Strategy): string {
  return STRATEGY_TEXT[s]?.[lang] ?? "";
}

export function effectIn(lang: Lang, e: EventEffect): string {
  return EFFECT_TEXT[e]?.[lang] ?? e;
}
