import { useState } from "preact/hooks";
import { errorMessage, lang, sentences, t } from "../i18n";
import { levelsIn, loadLevels } from "../i18n/levels";
import { ApiError } from "../net/http";
import {
  JOIN_CODE_DIGITS,
  type Mode,
  type Opponent,
  type SideChoice,
  type SpectatorPolicy,
  type TimeControl,
} from "../net/protocol";
import { canonicalCode, displayCode } from "../net/roomCode";
import { prefs, setPref } from "../state/prefs";
import { AccountSlot } from "./AccountSlot";
import { Emblem } from "./Emblem";
import { MyRooms } from "./MyRooms";
import { navigate } from "./router";
import { api, tokens } from "./services";
import { LanguagePicker, NameField, nameToSend } from "./widgets";

type OpponentChoice = "friend" | "easy" | "normal" | "hard";

/** A friend joins with the invite link; the computer takes the other seat at once. */
function opponentOption(choice: OpponentChoice): Opponent {
  return choice === "friend" ? { kind: "friend" } : { kind: "computer", level: choice };
}

/** What the chosen computer level is, from its measured strength (its texts load when first needed). */
function LevelNote({ level }: { level: "easy" | "normal" | "hard" }) {
  const texts = levelsIn(lang.value);
  if (!texts) {
    void loadLevels(lang.value).catch(() => {});
    return null;
  }
  return (
    <p class="small muted level-note" aria-live="polite">
      {texts[level]}
    </p>
  );
}

export function Landing() {
  const [side, setSide] = useState<SideChoice>("random");
  const [mode, setMode] = useState<Mode>("full");
  const [spectators, setSpectators] = useState<SpectatorPolicy>("anyone_with_link");
  const [opponent, setOpponent] = useState<OpponentChoice>("friend");
  const [revealAtEnd, setRevealAtEnd] = useState(false);
  const [clock, setClock] = useState<ClockChoice>("none");
  const [customMinutes, setCustomMinutes] = useState(15);
  const [customIncrement, setCustomIncrement] = useState(10);
  const [days, setDays] = useState<DaysChoice>("1");
  const [code, setCode] = useState("");
  const [joinCode, setJoinCode] = useState("");
  const [name, setName] = useState(prefs.value.name);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [entering, setEntering] = useState(false);
  const [entryError, setEntryError] = useState<string | null>(null);
  /** A room whose seats are both taken: the code, offered to watch. */
  const [full, setFull] = useState<string | null>(null);

  const create = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const chosen = nameToSend(name);
      const room = await api.createRoom({
        side,
        mode,
        spectators,
        opponent: opponentOption(opponent),
        ...(revealAtEnd ? { reveal_at_end: true } : {}),
        ...timeControl(clock, customMinutes, customIncrement, days),
        ...(chosen ? { name: chosen } : {}),
      });
      if (chosen) setPref("name", chosen);
      tokens.setToken(room.code, room.token);
      if (room.invite_url) tokens.setInvite(room.code, room.invite_url);
      if (room.join_code) tokens.setJoinCode(room.code, room.join_code);
      navigate(`/r/${room.code}`);
    } catch (err) {
      setError(err instanceof ApiError ? errorMessage(err.code, err.message) : String(err));
    } finally {
      setBusy(false);
    }
  };

  const typed = canonicalCode(code);
  const digits = joinCode.replace(/\D/g, "");
  // The room code with its join code takes the free seat; the room code alone lets one watch (and
  // with both seats taken the code offers that); this device's own seat goes straight to the room.
  const enter = async (e: Event) => {
    e.preventDefault();
    setEntryError(null);
    setFull(null);
    if (!typed) {
      setEntryError(t("landing.badCode"));
      return;
    }
    if (tokens.getToken(typed)) {
      navigate(`/r/${typed}`);
      return;
    }
    setEntering(true);
    try {
      const status = await api.roomStatus(typed);
      if (status.seat_free && digits.length !== JOIN_CODE_DIGITS) {
        setEntryError(t("landing.needJoinCode"));
      } else if (status.seat_free) {
        const chosen = nameToSend(name);
        const joined = await api.joinRoom(status.code, { join_code: digits }, chosen);
        if (chosen) setPref("name", chosen);
        tokens.setToken(status.code, joined.token);
        navigate(`/r/${status.code}`);
      } else if (status.spectators === "anyone_with_link") {
        setFull(status.code);
      } else {
        setEntryError(t("landing.seatsTakenNoWatch"));
      }
    } catch (err) {
      setEntryError(err instanceof ApiError ? errorMessage(err.code, err.message) : String(err));
    } finally {
      setEntering(false);
    }
  };

  return (
    <main class="page landing">
      <div class="landing-head">
        <h1>
          <Emblem size={44} />
          <span>
            {t("app.title")} <small>{t("app.gameName")}</small>
          </span>
        </h1>
        <LanguagePicker />
      </div>
      <p class="intro">{sentences(t("landing.intro1"), t("landing.intro2"))}</p>
      {/* on a desktop, creating and entering side by side: both on the first screen */}
      <div class="landing-cols">
        <form class="panel create" onSubmit={create} aria-labelledby="create-h">
          <h2 id="create-h">{t("landing.create")}</h2>
          <div class="create-cols">
            <div class="create-col">
              <NameField id="create-name" value={name} onInput={setName} />
              <Radio
                legend={t("landing.side")}
                name="side"
                value={side}
                onChange={setSide}
                options={(["rebel", "imperial", "random"] as const).map((v) => [v, t(`side.${v}`)])}
              />
              <Radio
                legend={t("landing.opponent")}
                name="opponent"
                value={opponent}
                onChange={setOpponent}
                options={(["friend", "easy", "normal", "hard"] as const).map((v) => [v, t(`opponent.${v}`)])}
              />
              {opponent !== "friend" && <LevelNote level={opponent} />}
              <Radio
                legend={t("landing.mode")}
                name="mode"
                value={mode}
                onChange={setMode}
                options={(["full", "tutorial"] as const).map((v) => [v, t(`mode.${v}`)])}
              />
            </div>
            <div class="create-col">
              <Radio
                legend={t("landing.clock")}
                name="clock"
                value={clock}
                onChange={setClock}
                options={(["none", "10+10", "20+20", "custom", "days"] as const).map((v) => [
                  v,
                  v === "none"
                    ? t("landing.clockNone")
                    : v === "custom"
                      ? t("landing.clockCustom")
                      : v === "days"
                        ? t("landing.clockDays")
                        : t("landing.clockPreset", { m: v === "10+10" ? 10 : 20, s: v === "10+10" ? 10 : 20 }),
                ])}
              />
              {clock === "days" && (
                <>
                  <Radio
                    legend={t("landing.daysPerMove")}
                    name="days"
                    value={days}
                    onChange={setDays}
                    options={DAYS.map((d) => [d, d === "1" ? t("landing.oneDay") : t("landing.nDays", { n: d })])}
                    describedBy="days-explain"
                  />
                  <p id="days-explain" class="small muted days-explain">
                    {t("landing.daysExplain")}
                  </p>
                </>
              )}
              {clock === "custom" && (
                <p class="row clock-custom">
                  <label>
                    {t("landing.clockMinutes")}{" "}
                    <input
                      type="number"
                      name="clock_minutes"
                      min={1}
                      max={90}
                      value={customMinutes}
                      onInput={(e) => setCustomMinutes(Number((e.currentTarget as HTMLInputElement).value))}
                    />
                  </label>
                  <label>
                    {t("landing.clockIncrement")}{" "}
                    <input
                      type="number"
                      name="clock_increment"
                      min={0}
                      max={120}
                      value={customIncrement}
                      onInput={(e) => setCustomIncrement(Number((e.currentTarget as HTMLInputElement).value))}
                    />
                  </label>
                </p>
              )}
              <Radio
                legend={t("landing.spectators")}
                name="spectators"
                value={spectators}
                onChange={setSpectators}
                options={(["anyone_with_link", "off"] as const).map((v) => [v, t(`spectators.${v}`)])}
              />
              <label class="choice reveal-opt">
                <input
                  type="checkbox"
                  name="reveal_at_end"
                  checked={revealAtEnd}
                  onChange={(e) => setRevealAtEnd((e.currentTarget as HTMLInputElement).checked)}
                />
                {t("landing.revealAtEnd")}
              </label>
            </div>
          </div>
          <button class="primary" type="submit" disabled={busy}>
            {busy ? t("landing.creating") : t("landing.createButton")}
          </button>
          {error && (
            <p class="error" role="alert">
              {error}
            </p>
          )}
        </form>

        <div class="landing-side">
          <form class="panel" onSubmit={enter} aria-labelledby="enter-h">
            <h2 id="enter-h">{t("landing.enter")}</h2>
            <p class="small muted">{t("landing.enterHint")}</p>
            <div class="enter-fields">
              <p>
                <label for="code">{t("landing.code")}</label>
                <input
                  id="code"
                  value={code}
                  placeholder="KJCH-M97E"
                  autoComplete="off"
                  autoCapitalize="characters"
                  spellcheck={false}
                  onInput={(e) => setCode((e.currentTarget as HTMLInputElement).value)}
                />
              </p>
              <p>
                <label for="join-code">{t("landing.joinCode")}</label>
                <input
                  id="join-code"
                  value={joinCode}
                  placeholder="123456"
                  inputMode="numeric"
                  autoComplete="off"
                  maxLength={JOIN_CODE_DIGITS + 2}
                  aria-describedby="join-code-hint"
                  onInput={(e) => setJoinCode((e.currentTarget as HTMLInputElement).value)}
                />
                <span id="join-code-hint" class="small muted">
                  {t("landing.joinCodeHint")}
                </span>
              </p>
            </div>
            {digits.length > 0 && <NameField id="enter-name" value={name} onInput={setName} />}
            <div class="row">
              <button type="submit" class="primary" disabled={!code.trim() || entering}>
                {entering ? t("landing.joining") : digits.length > 0 ? t("join.take") : t("landing.enterButton")}
              </button>
              <button type="button" disabled={!typed} onClick={() => navigate(`/r/${typed}/watch`)}>
                {t("landing.watchButton")}
              </button>
            </div>
            {full && (
              <p class="notice" role="status">
                {t("landing.seatsTaken", { code: displayCode(full) })}{" "}
                <a class="button" href={`/r/${full}/watch`}>
                  {t("landing.watchButton")}
                </a>
              </p>
            )}
            {entryError && (
              <p class="error" role="alert">
                {entryError}
              </p>
            )}
          </form>

          <AccountSlot at="landing" />
          <MyRooms />
        </div>
      </div>
    </main>
  );
}

type ClockChoice = "none" | "10+10" | "20+20" | "custom" | "days";

/** The days a correspondence room gives each decision (the server accepts exactly these). */
const DAYS = ["1", "2", "3", "7"] as const;
type DaysChoice = (typeof DAYS)[number];

/** The room option for a clock choice: presets, custom minutes (1–90) and seconds a decision (0–120),
 *  or days per decision (a correspondence room). */
function timeControl(
  choice: ClockChoice,
  minutes: number,
  increment: number,
  days: DaysChoice,
): { clock?: TimeControl } {
  const clampInt = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, Math.round(v) || lo));
  switch (choice) {
    case "none":
      return {};
    case "10+10":
      return { clock: { bank_secs: 600, increment_secs: 10 } };
    case "20+20":
      return { clock: { bank_secs: 1200, increment_secs: 20 } };
    case "custom":
      return { clock: { bank_secs: clampInt(minutes, 1, 90) * 60, increment_secs: clampInt(increment, 0, 120) } };
    case "days":
      return { clock: { days_per_decision: Number(days) } };
  }
}

function Radio<T extends string>(props: {
  legend: string;
  name: string;
  value: T;
  onChange: (v: T) => void;
  options: (readonly [T, string])[];
  describedBy?: string;
}) {
  return (
    <fieldset class={`choices f-${props.name}`} aria-describedby={props.describedBy}>
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
