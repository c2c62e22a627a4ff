// Provably fair shuffles, as a player sees them: while the game is played, the commitment the
// server made to its random seed before the first shuffle; once it is over, the seed and salt,
// and this browser's own check that SHA-256(salt ‖ seed) is that commitment. The inner drawer's
// texts (how it works, how to check by hand) arrive when the panel is first shown (i18n/fairTech.ts).
import { useEffect, useState } from "preact/hooks";
import { lang, t } from "../i18n";
import { fairTechIn, loadFairTech } from "../i18n/fairTech";
import type { Fairness } from "../net/protocol";

/** Bytes of a lowercase hex string (`null` if it is not one). */
function unhex(s: string): Uint8Array | null {
  if (s.length % 2 !== 0 || !/^[0-9a-f]*$/.test(s)) return null;
  const out = new Uint8Array(s.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(s.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** SHA-256(salt ‖ seed) as hex, computed here; `null` where the browser offers no WebCrypto
 *  (pages not served over HTTPS or from this machine). */
export async function commitmentOf(seedHex: string, saltHex: string): Promise<string | null> {
  const seed = unhex(seedHex);
  const salt = unhex(saltHex);
  if (!seed || !salt || !globalThis.crypto?.subtle) return null;
  const bytes = new Uint8Array(salt.length + seed.length);
  bytes.set(salt, 0);
  bytes.set(seed, salt.length);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return [...digest].map((b) => b.toString(16).padStart(2, "0")).join("");
}

type Check = "pending" | "ok" | "bad" | "unavailable";

/** The game's fairness panel; nothing for a game stored before commitments existed. */
export function FairnessPanel({ fairness, open = false }: { fairness: Fairness | null; open?: boolean }) {
  const [check, setCheck] = useState<Check>("pending");
  const revealed = fairness?.seed && fairness.salt ? { seed: fairness.seed, salt: fairness.salt } : null;
  useEffect(() => {
    if (!fairness || !revealed) return;
    let live = true;
    setCheck("pending");
    commitmentOf(revealed.seed, revealed.salt).then((c) => {
      if (live) setCheck(c === null ? "unavailable" : c === fairness.commitment ? "ok" : "bad");
    });
    return () => {
      live = false;
    };
  }, [fairness?.commitment, revealed?.seed, revealed?.salt]);
  const tech = fairTechIn(lang.value);
  if (!fairness) return null;
  if (!tech) void loadFairTech(lang.value).catch(() => {});
  return (
    <details class="fairness panel" open={open}>
      <summary>{t("fair.title")}</summary>
      {/* one plain sentence first: what was promised, and (after the game) that this browser checked it */}
      {revealed ? (
        <p class={`fair-check ${check}`} role="status">
          {t(`fair.plain.${check}`)}
        </p>
      ) : (
        <p class="fair-plain">{t("fair.plain.during")}</p>
      )}
      <details class="fair-tech">
        <summary>{t("fair.tech")}</summary>
        <p>{tech && (revealed ? tech.after : tech.during)}</p>
        <dl class="fair-values">
          <dt>{tech?.commitment}</dt>
          <dd>
            <code>{fairness.commitment}</code>
          </dd>
          {revealed && (
            <>
              <dt>{tech?.seed}</dt>
              <dd>
                <code>{revealed.seed}</code>
              </dd>
              <dt>{tech?.salt}</dt>
              <dd>
                <code>{revealed.salt}</code>
              </dd>
            </>
          )}
        </dl>
        {revealed && (
          <>
            <p class="small">{tech?.check[check]}</p>
            <p class="small muted">{tech?.how}</p>
            <pre class="fair-cmd">
              <code>{`printf %s ${revealed.salt}${revealed.seed} | xxd -r -p | sha256sum`}</code>
            </pre>
          </>
        )}
      </details>
    </details>
  );
}
