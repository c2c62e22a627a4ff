import { useEffect, useState } from "preact/hooks";
import { errorMessage, t } from "../i18n";
import { ApiError } from "../net/http";
import { displayCode } from "../net/roomCode";
import { navigate } from "./router";
import { api, tokens } from "./services";
import { LanguagePicker } from "./widgets";

/** `/r/{code}/take#{secret}`: this device takes the seat another device moved here (the link works
 *  once, for 10 minutes), keeps its own token, and goes to the room. */
export function TakePage({ code, secret }: { code: string; secret: string }) {
  const [error, setError] = useState<string | null>(secret ? null : t("take.incomplete"));
  useEffect(() => {
    if (!secret) return;
    let cancelled = false;
    // the secret is in the fragment: take it out of the address bar and the history
    history.replaceState(null, "", `/r/${code}/take`);
    api.takeSeat(code, secret).then(
      (r) => {
        if (cancelled) return;
        tokens.setToken(code, r.token);
        navigate(`/r/${code}`, true);
      },
      (err: unknown) => {
        if (!cancelled) setError(err instanceof ApiError ? errorMessage(err.code, err.message) : String(err));
      },
    );
    return () => {
      cancelled = true;
    };
  }, [code, secret]);
  return (
    <main class="page narrow">
      <div class="topline">
        <LanguagePicker />
      </div>
      <h1>{t("header.room", { code: displayCode(code) })}</h1>
      {error ? (
        <div class="panel" role="alert">
          <h2>{t("take.failed")}</h2>
          <p>{error}</p>
          <p class="row">
            {tokens.getToken(code) && (
              <a class="button primary" href={`/r/${code}`}>
                {t("take.openSeat")}
              </a>
            )}
            <a class="button" href={`/r/${code}/watch`}>
              {t("room.watchInstead")}
            </a>
            <a class="button" href="/">
              {t("common.back")}
            </a>
          </p>
        </div>
      ) : (
        <p aria-live="polite">{t("take.taking")}</p>
      )}
    </main>
  );
}
