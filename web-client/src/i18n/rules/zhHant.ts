// The reference panel's summary of the rules in 繁體中文 (zh-Hant), in the rulebooks' terms (docs/spec/glossary.md),
// following docs/spec/rules.md. A file of its own, loaded when the panel is first
// opened (i18n/rules.ts): few visits read it, and every visit would otherwise download it.
import type { RulesSection } from "../pack";

export const rules: readonly RulesSection[] = [
  {
    title: "目標與準備",
    points: [
      "贏得事件：最先獲得 7 勝利點數的玩家贏得遊戲。",
      "雙方各自秘密地從 8 張角色中選擇 4 張，與 16 張基本資源牌洗勻，組成 20 張的資源牌堆；其餘 4 張為儲備堆。",
      "雙方各獲得 2 影響力與 5 張戰略牌；均勢標記隨機決定朝向哪一方。",
    ],
  },
  {
    title: "1. 規劃階段",
    points: [
      "揭露下一張事件牌：容納上限（每個遊戲區域可放的卡牌數）、任務點數、勝利點數、影響力與效果。",
      "雙方各自秘密地選擇一張未使用的戰略牌。每張戰略牌只能使用一次；五張都使用後，全部收回。",
    ],
  },
  {
    title: "2. 對戰階段",
    points: [
      "由均勢標記朝向的一方先行動，之後雙方輪流，每次輪到時執行一個行動。",
      "打出一張卡牌：將資源牌堆頂的卡牌以豎置狀態放入你的遊戲區域（遊戲區域已達容納上限時不可）。",
      "使用一個能力：橫置你的一張豎置卡牌並執行其能力。已橫置的卡牌計算較低的資源點數。",
      "使用影響力：支付 1 影響力，將你的一張已橫置卡牌重置。",
      "放棄行動。遊戲區域沒有卡牌的玩家必須打出一張卡牌。雙方連續放棄行動時，對戰結束。",
    ],
  },
  {
    title: "3. 結算階段",
    points: [
      "揭示雙方的戰略牌。總資源點數超過任務點數的玩家爆掉，其戰略牌無效。",
      "未超過任務點數且總資源點數較高者獲勝；點數相同時，均勢標記朝向的一方獲勝；一方爆掉時另一方獲勝；雙方都爆掉則無人獲勝。",
      "勝者獲得事件牌：其勝利點數與影響力，然後執行其效果。無人獲勝時，事件牌放到事件牌堆底部。",
      "清理戰場：所有資源牌以豎置狀態洗回各自的資源牌堆，均勢標記轉向勝利點數較少的一方（點數相同時，轉向本回合的敗者）。",
    ],
  },
];
