// The header's settings menu: how "your turn" is announced while the page is in the background (a
// sound, a system notification). Remembered in this browser (state/prefs.ts).
import { useState } from "preact/hooks";
import { t } from "../i18n";
import { prefs, setPref } from "../state/prefs";

export function SettingsMenu() {
  const p = prefs.value;
  const [blocked, setBlocked] = useState(false);
  const toggleNotify = async (on: boolean) => {
    if (!on) return setPref("notify", false);
    const N = globalThis.Notification;
    const granted = N ? N.permission === "granted" || (await N.requestPermission()) === "granted" : false;
    setBlocked(!granted);
    setPref("notify", granted);
  };
  return (
    <details class="settings">
      <summary aria-label={t("settings.title")}>
        <span aria-hidden="true">⚙</span>
      </summary>
      <div class="settings-menu panel">
        <p class="small muted">{t("settings.yourTurn")}</p>
        <label>
          <input
            type="checkbox"
            class="pref-sound"
            checked={p.sound}
            onChange={(e) => setPref("sound", (e.target as HTMLInputElement).checked)}
          />{" "}
          {t("settings.sound")}
        </label>
        <label>
          <input
            type="checkbox"
            class="pref-notify"
            checked={p.notify}
            onChange={(e) => void toggleNotify((e.target as HTMLInputElement).checked)}
          />{" "}
          {t("settings.notify")}
        </label>
        {blocked && <p class="small error">{t("settings.blocked")}</p>}
      </div>
    </details>
  );
}
