// How the fair shuffles are checked, in English (i18n/fairTech.ts): loaded when a game's fairness
// panel is first shown.
import type { FairTechText } from "../fairTech";

export const text: FairTechText = {
  during:
    "Before the first shuffle the server committed to this game's random seed: it published SHA-256(salt ‖ seed) below and cannot change the seed without breaking it. The seed and salt are shown here when the game is over, so anyone can check every shuffle.",
  after:
    "The game is over: here are its seed and salt. SHA-256(salt ‖ seed) must be the commitment published before the first shuffle; every shuffle and random draw of the game follows from the seed and the players' actions.",
  commitment: "Commitment",
  seed: "Seed",
  salt: "Salt",
  how: "Check it yourself (salt, then seed, as bytes):",
  check: {
    pending: "Checking…",
    ok: "✓ Checked in this browser: SHA-256(salt ‖ seed) is the commitment.",
    bad: "✗ SHA-256(salt ‖ seed) is NOT the commitment published at the start.",
    unavailable: "This browser cannot compute SHA-256 on this page (it needs HTTPS); check it with the command below.",
  },
};
