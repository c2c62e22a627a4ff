// How the fair shuffles are checked, in 繁體中文 (i18n/fairTech.ts): loaded when a game's fairness
// panel is first shown.
import type { FairTechText } from "../fairTech";

export const text: FairTechText = {
  during:
    "第一次洗牌之前，伺服器已對本局的隨機種子做出承諾：公開了下方的 SHA-256（鹽值 ‖ 種子），之後無法更改種子。遊戲結束時會在這裡公開種子與鹽值，任何人都能檢查每一次洗牌。",
  after:
    "遊戲已結束，以下是本局的種子與鹽值。SHA-256（鹽值 ‖ 種子）必須等於第一次洗牌前公開的承諾值；本局的每一次洗牌與隨機抽取都由種子和玩家的行動決定。",
  commitment: "承諾值",
  seed: "種子",
  salt: "鹽值",
  how: "自行檢查（先鹽值、後種子，以位元組計算）：",
  check: {
    pending: "檢查中…",
    ok: "✓ 已在此瀏覽器檢查：SHA-256（鹽值 ‖ 種子）等於承諾值。",
    bad: "✗ SHA-256（鹽值 ‖ 種子）與開局時公開的承諾值不符。",
    unavailable: "此瀏覽器無法在本頁計算 SHA-256（需要 HTTPS）；請用下方的指令檢查。",
  },
};
