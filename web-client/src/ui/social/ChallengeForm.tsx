// Challenging a friend (POST /api/account/challenges): side, time control (the landing page's
// choices, ui/Landing.tsx), rated or not, spectators or not. The friend sees it at their next poll.
import { useState } from "preact/hooks";
import { t } from "../../i18n";
import type { AccountText } from "../../i18n/account";
import type { SocialText } from "../../i18n/social";
import type { SideChoice, SpectatorPolicy } from "../../net/protocol";
import { api, Failure, useStep } from "../account/shared";
import { refreshChallenges } from "./challenges";
import { type ClockChoice, DAYS, type DaysChoice, Radio, timeControl } from "./choices";

export function ChallengeForm(props: {
  text: SocialText;
  account: AccountText;
  username: string;
  onDone: () => void;
  onCancel: () => void;
}) {
  const { text, username } = props;
  const [side, setSide] = useState<SideChoice>("random");
  const [clock, setClock] = useState<ClockChoice>("10+10");
  const [days, setDays] = useState<DaysChoice>("1");
  const [minutes, setMinutes] = useState(5);
  const [increment, setIncrement] = useState(5);
  const [rated, setRated] = useState(true);
  const [spectators, setSpectators] = useState<SpectatorPolicy>("anyone_with_link");
  const step = useStep(props.account);
  const id = `challenge-${username}`;
  const send = (e: Event) => {
    e.preventDefault();
    void step.run(async () => {
      await api.challenge({ username, side, rated, spectators, ...timeControl(clock, minutes, increment, days) });
      await refreshChallenges().catch(() => undefined);
      props.onDone();
    });
  };
  return (
    <form class="challenge-form" onSubmit={send} aria-labelledby={`${id}-h`}>
      <h3 id={`${id}-h`}>
        <bdi>{text.challengeTitle(username)}</bdi>
      </h3>
      <Radio
        legend={t("landing.side")}
        name="challenge_side"
        value={side}
        onChange={setSide}
        options={(["rebel", "imperial", "random"] as const).map((v) => [v, t(`side.${v}`)])}
      />
      <Radio
        legend={t("landing.clock")}
        name="challenge_clock"
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
        <Radio
          legend={t("landing.daysPerMove")}
          name="challenge_days"
          value={days}
          onChange={setDays}
          options={DAYS.map((d) => [d, d === "1" ? t("landing.oneDay") : t("landing.nDays", { n: d })])}
        />
      )}
      {clock === "custom" && (
        <p class="row clock-custom">
          <label>
            {t("landing.clockMinutes")}{" "}
            <input
              type="number"
              name="challenge_minutes"
              min={1}
              max={90}
              value={minutes}
              onInput={(e) => setMinutes(Number((e.currentTarget as HTMLInputElement).value))}
            />
          </label>
          <label>
            {t("landing.clockIncrement")}{" "}
            <input
              type="number"
              name="challenge_increment"
              min={0}
              max={120}
              value={increment}
              onInput={(e) => setIncrement(Number((e.currentTarget as HTMLInputElement).value))}
            />
          </label>
        </p>
      )}
      <p>
        <label class="check">
          <input
            type="checkbox"
            name="challenge_rated"
            checked={rated}
            onChange={(e) => setRated((e.currentTarget as HTMLInputElement).checked)}
          />{" "}
          {text.rated}
        </label>{" "}
        <span class="small muted">{text.ratedHint}</span>
      </p>
      <Radio
        legend={t("landing.spectators")}
        name="challenge_spectators"
        value={spectators}
        onChange={setSpectators}
        options={(["anyone_with_link", "off"] as const).map((v) => [v, t(`spectators.${v}`)])}
      />
      <p class="row">
        <button type="submit" class="primary" disabled={step.busy}>
          {text.send}
        </button>
        <button type="button" onClick={props.onCancel}>
          {text.cancel}
        </button>
      </p>
      <Failure error={step.error} />
    </form>
  );
}
