import { useState } from "preact/hooks";
import { errorMessage, t } from "../i18n";
import { ApiError } from "../net/http";
import type { Mode, Opponent, SideChoice, SpectatorPolicy } from "../net/protocol";
import { navigate } from "./router";
import { api, tokens } from "./services";
import { LanguagePicker } from "./widgets";

type OpponentChoice = "friend" | "easy" | "normal" | "hard";

/** A friend joins with the invite link; the computer takes the other seat at once. */
function opponentOption(choice: OpponentChoice): Opponent {
  return choice === "friend" ? { kind: "friend" } : { kind: "computer", level: choice };
}

export function Landing() {
  const [side, setSide] = useState<SideChoice>("random");
  const [mode, setMode] = useState<Mode>("full");
  const [spectators, setSpectators] = useState<SpectatorPolicy>("anyone_with_link");
  const [opponent, setOpponent] = useState<OpponentChoice>("friend");
  const [code, setCode] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const create = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const room = await api.createRoom({ side, mode, spectators, opponent: opponentOption(opponent) });
      tokens.setToken(room.code, room.token);
      if (room.invite_url) tokens.setInvite(room.code, room.invite_url);
      navigate(`/r/${room.code}`);
    } catch (err) {
      setError(err instanceof ApiError ? errorMessage(err.code, err.message) : String(err));
    } finally {
      setBusy(false);
    }
  };

  const cleaned = code
    .trim()
    .replace(/^.*\/r\//, "")
    .replace(/[^A-Za-z0-9]/g, "");
  const enter = (e: Event) => {
    e.preventDefault();
    if (cleaned) navigate(`/r/${cleaned}`);
  };

  return (
    <main class="page narrow landing">
      <div class="topline">
        <LanguagePicker />
      </div>
      <h1>
        {t("app.title")} <small>{t("app.gameName")}</small>
      </h1>
      <p class="intro">
        {t("landing.intro1")} {t("landing.intro2")}
      </p>

      <form class="panel" onSubmit={create} aria-labelledby="create-h">
        <h2 id="create-h">{t("landing.create")}</h2>
        <Radio
          legend={t("landing.side")}
          name="side"
          value={side}
          onChange={setSide}
          options={(["rebel", "imperial", "random"] as const).map((v) => [v, t(`side.${v}`)])}
        />
        <Radio
          legend={t("landing.mode")}
          name="mode"
          value={mode}
          onChange={setMode}
          options={(["full", "tutorial"] as const).map((v) => [v, t(`mode.${v}`)])}
        />
        <Radio
          legend={t("landing.opponent")}
          name="opponent"
          value={opponent}
          onChange={setOpponent}
          options={(["friend", "easy", "normal", "hard"] as const).map((v) => [v, t(`opponent.${v}`)])}
        />
        <Radio
          legend={t("landing.spectators")}
          name="spectators"
          value={spectators}
          onChange={setSpectators}
          options={(["anyone_with_link", "off"] as const).map((v) => [v, t(`spectators.${v}`)])}
        />
        <button class="primary" type="submit" disabled={busy}>
          {busy ? t("landing.creating") : t("landing.createButton")}
        </button>
        {error && (
          <p class="error" role="alert">
            {error}
          </p>
        )}
      </form>

      <form class="panel" onSubmit={enter} aria-labelledby="enter-h">
        <h2 id="enter-h">{t("landing.enter")}</h2>
        <label for="code">{t("landing.code")}</label>
        <div class="row">
          <input
            id="code"
            value={code}
            autoComplete="off"
            autoCapitalize="off"
            spellcheck={false}
            onInput={(e) => setCode((e.currentTarget as HTMLInputElement).value)}
          />
          <button type="submit" disabled={!cleaned}>
            {t("landing.enterButton")}
          </button>
          <button type="button" disabled={!cleaned} onClick={() => navigate(`/r/${cleaned}/watch`)}>
            {t("landing.watchButton")}
          </button>
        </div>
      </form>
    </main>
  );
}

function Radio<T extends string>(props: {
  legend: string;
  name: string;
  value: T;
  onChange: (v: T) => void;
  options: (readonly [T, string])[];
}) {
  return (
    <fieldset class="choices">
      <legend>{props.legend}</legend>
      {props.options.map(([v, label]) => (
        <label key={v} class={`choice${props.value === v ? " on" : ""} opt-${v}`}>
          <input
            type="radio"
            name={props.name}
            value={v}
            checked={props.value === v}
            onChange={() => props.onChange(v)}
          />
          {label}
        </label>
      ))}
    </fieldset>
  );
}
