// How the fair shuffles are checked, in 日本語 (i18n/fairTech.ts): loaded when a game's fairness
// panel is first shown.
import type { FairTechText } from "../fairTech";

export const text: FairTechText = {
  during:
    "最初のシャッフルの前に、サーバーはこのゲームの乱数シードを確約しました。下の SHA-256（ソルト ‖ シード）を公開しており、後からシードを変えることはできません。ゲーム終了時にここでシードとソルトを公開するので、誰でもすべてのシャッフルを確かめられます。",
  after:
    "ゲームが終わりました。このゲームのシードとソルトです。SHA-256（ソルト ‖ シード）は最初のシャッフル前に公開した確約値と一致するはずです。ゲーム中のシャッフルと乱数による選択はすべて、シードとプレイヤーの行動から決まります。",
  commitment: "確約値",
  seed: "シード",
  salt: "ソルト",
  how: "自分で確認する（ソルト、シードの順にバイト列として）：",
  check: {
    pending: "確認中…",
    ok: "✓ このブラウザで確認しました：SHA-256（ソルト ‖ シード）は確約値と一致します。",
    bad: "✗ SHA-256（ソルト ‖ シード）が開始時に公開した確約値と一致しません。",
    unavailable:
      "このページではブラウザが SHA-256 を計算できません（HTTPS が必要です）。下のコマンドで確認してください。",
  },
};
