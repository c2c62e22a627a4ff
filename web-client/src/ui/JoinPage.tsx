import { useEffect, useState } from "preact/hooks";
import { errorMessage, t } from "../i18n";
import { ApiError } from "../net/http";
import { displayCode } from "../net/roomCode";
import { prefs, setPref } from "../state/prefs";
import { navigate } from "./router";
import { api, tokens } from "./services";
import { LanguagePicker, NameField, nameToSend } from "./widgets";

/** `/r/{code}/join#{invite}`: the invited friend takes the free seat under the name they give
 *  (prefilled with the one this device remembers), keeps the token, and goes to the room. */
export function JoinPage({ code, invite }: { code: string; invite: string }) {
  const [error, setError] = useState<string | null>(invite ? null : t("join.noInvite"));
  const [name, setName] = useState(prefs.value.name);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    // Already seated here (e.g. the creator opened their own invite link): keep that seat.
    if (tokens.getToken(code)) navigate(`/r/${code}`, true);
  }, [code]);
  const join = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const chosen = nameToSend(name);
      const r = await api.joinRoom(code, { invite }, chosen);
      if (chosen) setPref("name", chosen);
      tokens.setToken(code, r.token);
      navigate(`/r/${code}`, true);
    } catch (err) {
      // The seat may already be ours (reloaded join link): go to the room if we hold a token.
      if (err instanceof ApiError && err.code === "seat_taken" && tokens.getToken(code)) {
        navigate(`/r/${code}`, true);
        return;
      }
      setError(err instanceof ApiError ? errorMessage(err.code, err.message) : String(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <main class="page narrow">
      <div class="topline">
        <LanguagePicker />
      </div>
      <h1>{t("header.room", { code: displayCode(code) })}</h1>
      {invite && (
        <form class="panel" onSubmit={join} aria-labelledby="join-h">
          <h2 id="join-h">{t("join.title")}</h2>
          <p>{t("join.invited")}</p>
          <NameField id="join-name" value={name} onInput={setName} />
          <button class="primary" type="submit" disabled={busy}>
            {busy ? t("join.joining") : t("join.take")}
          </button>
        </form>
      )}
      {error && (
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
      )}
    </main>
  );
}
