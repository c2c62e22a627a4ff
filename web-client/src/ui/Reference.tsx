import { useState } from "preact/hooks";
import { EVENT_INFO, IMPERIAL_CHARACTERS, REBEL_CHARACTERS, STRATEGIES } from "../data/cards";
import { cardName, effectText, eventName, lang, powerText, sideName, strategyName, strategyText, t } from "../i18n";
import { loadRules, rulesIn } from "../i18n/rules";

/** A drawer with a summary of the rules, every card's power, the strategies and the events (our
 *  paraphrases). */
export function Reference() {
  const basics = ["military", "diplomacy", "recon", "the_force"] as const;
  // the summary is fetched when the drawer is first opened (i18n/rules.ts)
  const [open, setOpen] = useState(false);
  return (
    <details class="log reference" id="reference" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>{t("ref.title")}</summary>
      <h3>{t("ref.rules")}</h3>
      {open && <RulesSummary />}
      <h3>{t("ref.cards")}</h3>
      <dl class="ref-list">
        {basics.map((k) => (
          <div key={k}>
            <dt>{t(`kind.${k}`)} 2–5</dt>
            <dd>{powerText(k)}</dd>
          </div>
        ))}
        {[
          ...REBEL_CHARACTERS.map((c) => ["rebel", c] as const),
          ...IMPERIAL_CHARACTERS.map((c) => ["imperial", c] as const),
        ].map(([f, c]) => (
          <div key={c}>
            <dt class={`side-${f}`}>
              {cardName(c)}{" "}
              <span class="muted small">
                ({lang.value !== "en" && <span lang="en">{c} · </span>}
                {sideName(f)}, 6/1)
              </span>
            </dt>
            <dd>{powerText(c)}</dd>
          </div>
        ))}
      </dl>
      <h3>{t("ref.strategies")}</h3>
      <dl class="ref-list">
        {STRATEGIES.map((s) => (
          <div key={s}>
            <dt>{strategyName(s)}</dt>
            <dd>{strategyText(s)}</dd>
          </div>
        ))}
      </dl>
      <h3 id="ref-events-h">{t("ref.events")}</h3>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region with nothing focusable in it must take the keyboard's focus to scroll (axe: scrollable-region-focusable) */}
      <section class="table-scroll" tabIndex={0} aria-labelledby="ref-events-h">
        <table class="reveal ref-events">
          <thead>
            <tr>
              <th scope="col">{t("event.title")}</th>
              <th scope="col">{t("event.capacity", { n: "" }).trim()}</th>
              <th scope="col">{t("event.objective")}</th>
              <th scope="col">{t("table.vp")}</th>
              <th scope="col">{t("table.influence")}</th>
            </tr>
          </thead>
          <tbody>
            {EVENT_INFO.map((e) => (
              <tr key={e.name}>
                <th scope="row">
                  {eventName(e.name)}
                  {lang.value !== "en" && (
                    <span class="muted small" lang="en">
                      {" "}
                      {e.name}
                    </span>
                  )}
                  {e.effect !== "none" && <div class="small muted">{effectText(e.effect)}</div>}
                </th>
                <td>{e.capacity}</td>
                <td>{e.objective}</td>
                <td>{e.vp}</td>
                <td>{e.influence}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </details>
  );
}

/** The rules in the page's language, once its file has arrived. */
function RulesSummary() {
  const rules = rulesIn(lang.value);
  if (!rules) {
    void loadRules(lang.value).catch(() => {});
    return <p aria-live="polite">{t("rooms.loading")}</p>;
  }
  return (
    <>
      {rules.map((sec) => (
        <section key={sec.title} class="ref-rules">
          <h4>{sec.title}</h4>
          <ul>
            {sec.points.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        </section>
      ))}
    </>
  );
}
