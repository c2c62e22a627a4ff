// A short summary of the rules for the reference panel, in the rulebooks' terms (glossary). It follows
// docs/spec/rules.md; the card texts are in powers.ts.
import type { Lang } from "./langs";

export interface RulesSection {
  title: string;
  points: string[];
}

export const RULES_SUMMARY: Record<Lang, RulesSection[]> = {
  en: [
    {
      title: "Goal and setup",
      points: [
        "Win events: the first player with 7 victory points wins the game.",
        "Each player secretly chooses 4 of their 8 characters and shuffles them with their 16 basic cards into a 20-card resource deck; the other 4 are the reserve.",
        "Each player starts with 2 influence and 5 strategy cards; the balance token starts on a random side.",
      ],
    },
    {
      title: "1. Planning phase",
      points: [
        "The next event card is revealed: capacity (cards each play area may hold), objective value, VP, influence and effect.",
        "Each player secretly chooses one unused strategy card. A strategy is used once; when all five are used, all five come back.",
      ],
    },
    {
      title: "2. Struggle phase",
      points: [
        "The side face up on the balance token starts; then turns alternate, one action per turn.",
        "Play a card: the top card of your deck enters your play area, ready (not when the area is at capacity).",
        "Use a power: exhaust one of your ready cards and carry out its power. An exhausted card counts its lower value.",
        "Spend influence: pay 1 influence to ready one of your exhausted cards.",
        "Pass. A player with an empty play area must play a card. The struggle ends when both players pass in a row.",
      ],
    },
    {
      title: "3. Dominance phase",
      points: [
        "Both strategies are revealed. A player whose total resource value is above the objective value is bust, and their strategy does not resolve.",
        "The higher total not above the objective wins; equal totals: the side on the balance token wins; one bust: the other wins; both bust: nobody.",
        "The winner takes the event: its VP and influence, then its effect. With no winner it goes to the bottom of the event deck.",
        "Cleanup: every resource card goes back into its owner's deck, ready, and the balance token turns to the side with fewer VP (on equal VP, to this round's loser).",
      ],
    },
  ],
  "zh-Hant": [
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
  ],
  ja: [
    {
      title: "目的と準備",
      points: [
        "イベントを獲得し、最初に勝利ポイントが 7 に達したプレイヤーがゲームに勝利します。",
        "各プレイヤーは 8 枚のキャラクターから 4 枚を秘密裏に選び、16 枚の基本カードと混ぜて 20 枚のリソース・デッキを作ります。残りの 4 枚は予備です。",
        "各プレイヤーは影響力 2 と戦略カード 5 枚で始めます。バランス・トークンはランダムな側を表にします。",
      ],
    },
    {
      title: "1. 計画フェーズ",
      points: [
        "次のイベント・カードを明かします：収容力（各プレイ・エリアに置くことができるカードの枚数）、目標値、勝利ポイント、影響力、効果。",
        "各プレイヤーは未使用の戦略カードを 1 枚、相手に分からないように選びます。戦略カードは一度ずつ使い、5 枚すべて使ったら全部回収します。",
      ],
    },
    {
      title: "2. 紛争フェーズ",
      points: [
        "バランス・トークンの表の側から始め、交互に手番を行います。手番ごとにアクションを 1 つ行います。",
        "カードのプレイ：デッキの一番上のカードを準備中の状態でプレイ・エリアに置きます（収容力に達しているときはできません）。",
        "パワーの使用：準備中の自分のカードを 1 枚疲弊させ、そのパワーを解決します。疲弊したカードは低い方の値を数えます。",
        "影響力を費やす：影響力を 1 払い、疲弊した自分のカードを 1 枚準備中に戻します。",
        "パス。プレイ・エリアが空のプレイヤーはカードをプレイしなければなりません。双方が続けてパスすると紛争は終わります。",
      ],
    },
    {
      title: "3. 支配フェーズ",
      points: [
        "双方の戦略を明かします。総リソース値が目標値を超えたプレイヤーはバーストし、その戦略カードは解決しません。",
        "目標値を超えない範囲で総リソース値が高い方が勝ちます。同じ値ならバランス・トークンの表の側、一方がバーストなら他方が勝ち、双方バーストなら勝者なしです。",
        "勝者はイベントを獲得し、その勝利ポイントと影響力を得て、効果を解決します。勝者がいなければイベントはイベント・デッキの一番下へ。",
        "整理：すべてのリソース・カードを準備中にして各自のデッキに戻し、バランス・トークンを勝利ポイントの少ない側に向けます（同点ならこのラウンドの敗者側）。",
      ],
    },
  ],
};
