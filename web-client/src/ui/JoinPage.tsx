import { useEffect, useState } from "preact/hooks";
import { errorMessage, t } from "../i18n";
import { ApiError } from "../net/http";
import { navigate } from "./router";
import { api, tokens } from "./services";
import { LanguagePicker } from "./widgets";

/** `/r/{code}/join#{invite}`: take the free seat, keep the token, go to the room. */
export function JoinPage({ code, invite }: { code: string; invite: string }) {
  const [error, setError] = useState<string | null>(invite ? null : t("join.noInvite"));
  useEffect(() => {
    // Already seated here (e.g. the creator opened their own invite link): keep that seat.
    if (tokens.getToken(code)) {
      navigate(`/r/${code}`, true);
      return;
    }
    if (!invite) return;
    let cancelled = false;
    api
      .joinRoom(code, invite)
      .then((r) => {
        if (cancelled) return;
        tokens.setToken(code, r.token);
        navigate(`/r/${code}`, true);
      })
      .catch((err: unknown) => {
        if (cancelled) return;
        // The seat may already be ours (reloaded join link): go to the room if we hold a token.
        if (err instanceof ApiError && err.code === "seat_taken" && tokens.getToken(code)) {
          navigate(`/r/${code}`, true);
          return;
        }
        setError(err instanceof ApiError ? errorMessage(err.code, err.message) : String(err));
      });
    return () => {
      cancelled = true;
    };
  }, [code, invite]);
  return (
    <main class="page narrow">
      <div class="topline">
        <LanguagePicker />
      </div>
      <h1>{t("header.room", { code })}</h1>
      {error ? (
        <div class="panel" role="alert">
          <h2>{t("join.failed")}</h2>
          <p>{error}</p>
          <p class="row">
            <a class="button" href={`/r/${code}/watch`}>
              {t("room.watchInstead")}
            </a>
            <a class="button" href="/">
              {t("common.back")}
            </a>
          </p>
        </div>
      ) : (
        <p aria-live="polite">{t("join.joining")}</p>
      )}
    </main>
  );
}
