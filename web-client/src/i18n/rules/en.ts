// The reference panel's summary of the rules in English, in the rulebooks' terms (docs/spec/glossary.md),
// following docs/spec/rules.md. A file of its own, loaded when the panel is first
// opened (i18n/rules.ts): few visits read it, and every visit would otherwise download it.
import type { RulesSection } from "../pack";

export const rules: readonly RulesSection[] = [
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
];
