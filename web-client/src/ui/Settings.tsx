// The header's settings menu: the player's display name at this table (sent to the server: everyone
// sees it), and how "your turn" is announced while the page is in the background (a sound, a system
// notification), remembered in this browser (state/prefs.ts).
import { useEffect, useRef, useState } from "preact/hooks";
import { t } from "../i18n";
import { type Motion, prefs, setPref } from "../state/prefs";
import type { GameStore } from "../state/store";
import { NameField, nameToSend, useDismiss } from "./widgets";

export function SettingsMenu({ store }: { store: GameStore }) {
  const p = prefs.value;
  const me = store.me.value;
  const current = me ? store.names.value[me === "rebel" ? 0 : 1] : null;
  const [name, setName] = useState(current ?? "");
  // the name the room tells (it may arrive, or change on another device, after the menu is made)
  useEffect(() => setName(current ?? ""), [current]);
  const saveName = (e: Event) => {
    e.preventDefault();
    const chosen = nameToSend(name);
    if (store.setName(chosen) && chosen) setPref("name", chosen);
  };
  const [blocked, setBlocked] = useState(false);
  const menu = useRef<HTMLDetailsElement>(null);
  useDismiss(menu);
  const toggleNotify = async (on: boolean) => {
    if (!on) return setPref("notify", false);
    const N = globalThis.Notification;
    const granted = N ? N.permission === "granted" || (await N.requestPermission()) === "granted" : false;
    setBlocked(!granted);
    setPref("notify", granted);
  };
  return (
    <details class="settings" ref={menu}>
      <summary aria-label={t("settings.title")}>
        <span aria-hidden="true">⚙</span>
      </summary>
      <div class="settings-menu panel">
        {me && (
          <form class="name-form" onSubmit={saveName}>
            <NameField id="settings-name" value={name} onInput={setName} />
            <button type="submit" disabled={(nameToSend(name) ?? null) === current}>
              {t("name.save")}
            </button>
          </form>
        )}
        <p class="small muted">{t("settings.yourTurn")}</p>
        <Toggle cls="pref-sound" on={p.sound} set={(on) => setPref("sound", on)} label={t("settings.sound")} />
        <Toggle cls="pref-notify" on={p.notify} set={(on) => void toggleNotify(on)} label={t("settings.notify")} />
        {blocked && <p class="small error">{t("settings.blocked")}</p>}
        <label class="pref-motion">
          {t("settings.motion")}{" "}
          <select value={p.motion} onChange={(e) => setPref("motion", (e.target as HTMLSelectElement).value as Motion)}>
            {(["full", "fast", "off"] as const).map((m) => (
              <option key={m} value={m}>
                {t(`settings.motion.${m}`)}
              </option>
            ))}
          </select>
        </label>
        <Toggle
          cls="pref-table-sounds"
          on={p.tableSounds}
          set={(on) => setPref("tableSounds", on)}
          label={t("settings.tableSounds")}
        />
      </div>
    </details>
  );
}

/** One setting's checkbox with its words. */
function Toggle(props: { cls: string; on: boolean; set: (on: boolean) => void; label: string }) {
  return (
    <label>
      <input
        type="checkbox"
        class={props.cls}
        checked={props.on}
        onChange={(e) => props.set((e.target as HTMLInputElement).checked)}
      />{" "}
      {props.label}
    </label>
  );
}
