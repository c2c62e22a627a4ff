// Plain sentences for log entries, localized from the structured entry (ACTIONS.md "Log entries").
import { cardsIn } from "../data/cards";
import type { Card, EventCard, Faction, LogEntry, Modifier, Strategy } from "../net/protocol";
import type { Lang } from "./langs";

export interface LogHelpers {
  side(f: Faction): string;
  /** `null`: a card this viewer may not know */
  card(c: Card | null): string;
  event(e: EventCard): string;
  strategy(s: Strategy | null): string;
  modifier(m: Modifier): string;
}

type Fmt = (e: LogEntry, h: LogHelpers) => string;

type Revealed = Extract<LogEntry, { type: "strategies_revealed" }>;

/**
 * Each side's revealed strategy (`side` + `between` + strategy), marked with `over` when its total was
 * over the objective (R-5.1).
 */
function revealedSides(e: Revealed, h: LogHelpers, between: string, over: string): string[] {
  return (["rebel", "imperial"] as const).map(
    (f, i) => `${h.side(f)}${between}${h.strategy(e.strategies[i])}${e.eligible[i] ? "" : over}`,
  );
}

/** R-7.1: when both players chose Deception, neither resolves. */
function bothDeception(e: Revealed): boolean {
  return e.strategies[0] === "deception" && e.strategies[1] === "deception";
}

const en: Fmt = (e, h) => {
  switch (e.type) {
    case "game_started":
      return "The game starts.";
    case "characters_chosen":
      return `${h.side(e.faction)} chose characters${e.characters ? `: ${cardsIn(e.characters).map(h.card).join(", ")}` : ""}.`;
    case "deck_shuffled":
      return `${h.side(e.faction)} deck shuffled.`;
    case "round_started":
      return `Round ${e.round}: ${h.event(e.event)}.`;
    case "strategy_chosen":
      return `${h.side(e.target)} strategy chosen${e.strategy ? `: ${h.strategy(e.strategy)}` : ""}.`;
    case "struggle_started":
      return `The struggle begins; ${h.side(e.first)} acts first.`;
    case "card_played":
      return `${h.side(e.faction)} played ${h.card(e.card)}.`;
    case "discard_pile_under_deck":
      return `${h.side(e.faction)} discard pile (${e.cards}) goes under the deck.`;
    case "power_used":
      return `${h.side(e.faction)} used ${h.card(e.card)}${e.banned ? " (banned: no effect)" : ""}.`;
    case "card_discarded":
      return `${h.side(e.by)} discarded ${h.card(e.card.card)} (${h.side(e.card.owner)}).`;
    case "card_exhausted":
      return `${h.side(e.by)} exhausted ${h.card(e.card.card)} (${h.side(e.card.owner)}).`;
    case "card_readied":
      return `${h.side(e.faction)} spent influence to ready ${h.card(e.card)}.`;
    case "passed":
      return `${h.side(e.faction)} passed.`;
    case "influence_gained":
      return `${h.side(e.faction)} gains ${e.amount} influence (${e.total}).`;
    case "influence_lost":
      return `${h.side(e.faction)} loses ${e.amount} influence (${e.total}).`;
    case "deck_looked":
      return `${h.side(e.by)} looked at ${e.count} cards of the ${h.side(e.deck)} deck${e.cards ? `: ${cardsIn(e.cards).map(h.card).join(", ")}` : ""}.`;
    case "deck_searched":
      return `${h.side(e.by)} searched the ${h.side(e.deck)} deck.`;
    case "card_on_top":
      return `${h.side(e.by)} put ${h.card(e.card)} on the ${h.side(e.deck)} deck.`;
    case "card_to_play_area":
      return `${h.card(e.card)} enters the ${h.side(e.faction)} play area.`;
    case "character_to_reserve":
      return `${h.card(e.card)} goes to the ${h.side(e.faction)} reserve.`;
    case "reserve_to_deck":
      return `${h.card(e.card)} goes from the ${h.side(e.faction)} reserve into the deck.`;
    case "strategy_discarded":
      return `${h.side(e.by)} discarded the ${h.side(e.faction)} strategy ${h.strategy(e.strategy)}.`;
    case "strategies_retrieved":
      return `${h.side(e.faction)} takes back all strategies.`;
    case "new_strategy_chosen":
      return `${h.side(e.faction)} chose a new strategy${e.strategy ? `: ${h.strategy(e.strategy)}` : ""}.`;
    case "struggle_ended":
      return e.reason === "both_passed" ? "Both passed: the struggle ends." : "The struggle ends (action limit).";
    case "strategies_revealed":
      return `Strategies revealed: ${revealedSides(e, h, " ", " (over the objective: it does not resolve)").join(", ")}.${
        bothDeception(e) ? ` Both chose ${h.strategy("deception")}: neither resolves.` : ""
      }`;
    case "direct_assault":
      return `Direct Assault: ${h.side(e.faction)} total is ${e.total}.`;
    case "round_decided":
      return e.result.winner
        ? `${h.side(e.result.winner)} wins round ${e.result.round}.`
        : `Nobody wins round ${e.result.round}.`;
    case "event_won":
      return `${h.side(e.faction)} wins ${h.event(e.event)}: ${e.vp} VP, ${e.influence} influence.`;
    case "event_to_bottom":
      return `${h.event(e.event)} goes to the bottom of the event deck.`;
    case "events_reordered":
      return `${h.side(e.by)} reordered the top ${e.count} events.`;
    case "modifier_set":
      return `${h.side(e.faction)}: ${h.modifier(e.modifier)} next round.`;
    case "balance_token":
      return e.moved
        ? `The balance token moves to the ${h.side(e.faction)} side.`
        : `The balance token stays with the ${h.side(e.faction)} side.`;
    case "strategy_used":
      // R-5.10: the chosen strategy goes to the used ones, whether or not it resolved (R-5.1, R-7.1).
      return `${h.side(e.faction)}: ${h.strategy(e.strategy)} goes to the used strategies.`;
    case "game_over":
      return e.outcome.winner ? `Game over: ${h.side(e.outcome.winner)} wins.` : "Game over: draw.";
  }
};

const zh: Fmt = (e, h) => {
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

const ja: Fmt = (e, h) => {
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

const BY_LANG: Record<Lang, Fmt> = { en, "zh-Hant": zh, ja };

/** In 繁體中文 and 日本語 a name stands in 「」 brackets right against the text around it, as the
 *  rulebooks write it, instead of spaces that those languages do not use between words. */
function bracketed(h: LogHelpers): LogHelpers {
  const q = (s: string) => `「${s}」`;
  return {
    side: h.side,
    card: (c) => (c === null ? h.card(null) : q(h.card(c))),
    event: (e) => q(h.event(e)),
    strategy: (s) => (s === null ? h.strategy(null) : q(h.strategy(s))),
    modifier: (m) => q(h.modifier(m)),
  };
}

export function describeLog(lang: Lang, e: LogEntry, h: LogHelpers): string {
  const s = BY_LANG[lang](e, lang === "en" ? h : bracketed(h));
  return s.charAt(0).toUpperCase() + s.slice(1);
}
