// @vitest-environment happy-dom
// One seat plays through the real UI (clicking buttons, as a user would), the other is a bot on
// net/ + state/ choosing random legal actions, against a running server.
import { render } from "preact";
import { describe, expect, it } from "vitest";
import { type MessageKey, setLanguage, translate } from "../src/i18n";
import { Connection } from "../src/net/connection";
import { realClock, type SocketLike } from "../src/net/env";
import { ApiClient } from "../src/net/http";
import { GameStore } from "../src/state/store";

const env = (globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env ?? {};
const base = env.EVR_API ?? "http://127.0.0.1:8080";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const until = async (cond: () => boolean, ms = 10_000) => {
  const t0 = Date.now();
  while (!cond()) {
    if (Date.now() - t0 > ms) throw new Error("timeout");
    await sleep(10);
  }
};

describe("UI against the live server", () => {
  it.each(["en", "ja", "zh-Hant"] as const)(
    "%s: creates a room from the landing page and plays a whole game by clicking",
    async (l) => {
      setLanguage(l);
      const tr = (k: MessageKey) => translate(l, k);
      const root = document.createElement("div");
      document.body.appendChild(root);
      history.replaceState(null, "", "/");
      const { App } = await import("../src/ui/App");
      const { navigate } = await import("../src/ui/router");
      navigate("/", true);
      render(<App />, root);
      const btn = (text: string) =>
        [...root.querySelectorAll("button")].find((b) => b.textContent?.trim() === text) as
          | HTMLButtonElement
          | undefined;

      (root.querySelector('input[name="side"][value="rebel"]') as HTMLInputElement).click();
      btn(tr("landing.createButton"))!.click();
      await until(() => root.querySelector("input[readonly]") !== null);
      const invite = new URL((root.querySelector("input[readonly]") as HTMLInputElement).value);
      const code = invite.pathname.split("/")[2]!;
      expect(location.pathname).toBe(`/r/${code}`);
      const snapshots: Record<string, string> = { lobby: root.textContent ?? "" };

      // the bot takes the other seat
      const api = new ApiClient((i, init) => fetch(base + i, init));
      const joined = await api.joinRoom(code, { invite: invite.hash.slice(1) });
      const bot = new GameStore();
      const conn = new Connection({
        url: `${base.replace(/^http/, "ws")}/ws/${code}`,
        token: joined.token,
        socketFactory: (u) => new WebSocket(u) as unknown as SocketLike,
        clock: realClock,
      });
      bot.attach(conn);
      conn.start();
      let botBusy = false;
      const botLoop = setInterval(() => {
        const v = bot.view.value;
        if (botBusy || bot.busy.value || !v || v.legal_actions.length === 0) return;
        botBusy = true;
        setTimeout(() => {
          const legal = bot.view.value?.legal_actions ?? [];
          if (legal.length) bot.act(legal[Math.floor(Math.random() * legal.length)]!);
          botBusy = false;
        }, 60);
      }, 30);

      let clicks = 0;
      const seen = new Set<string>();
      try {
        for (let i = 0; i < 3000 && !root.textContent?.includes(tr("over.title")); i++) {
          await sleep(70);
          if (root.textContent?.includes(tr("action.sending"))) continue;
          const refused = root.querySelector(".toast");
          expect(refused?.textContent ?? "").toBe("");
          const confirmChars = btn(tr("chars.confirm"));
          if (confirmChars) {
            seen.add("characters");
            snapshots.characters ??= root.textContent ?? "";
            const picks = [...root.querySelectorAll("button.pick")] as HTMLButtonElement[];
            for (const p of picks.slice(0, 4)) p.click();
            await sleep(20);
            btn(tr("chars.confirm"))!.click();
            clicks++;
            continue;
          }
          const dialog = root.querySelector('[role="dialog"]');
          if (dialog) {
            seen.add(`pending:${dialog.querySelector("h2")?.textContent}`);
            const radios = [...dialog.querySelectorAll('input[type="radio"]')] as HTMLInputElement[];
            radios[Math.floor(Math.random() * radios.length)]!.click();
            await sleep(20);
            btn(tr("common.confirm"))!.click();
            clicks++;
            continue;
          }
          const strategies = ([...root.querySelectorAll("button.strategy")] as HTMLButtonElement[]).filter(
            (b) => !b.disabled,
          );
          if (strategies.length) {
            seen.add("strategy");
            snapshots.planning ??= root.textContent ?? "";
            strategies[Math.floor(Math.random() * strategies.length)]!.click();
            clicks++;
            continue;
          }
          const actions = ([...root.querySelectorAll(".actionbar button, .card-btn")] as HTMLButtonElement[]).filter(
            (b) => !b.disabled,
          );
          if (actions.length) {
            seen.add("struggle");
            snapshots.struggle ??= root.textContent ?? "";
            // prefer playing a card sometimes, pass less often, so games have powers and pending choices
            const b = actions[Math.floor(Math.random() * actions.length)]!;
            b.click();
            clicks++;
          }
        }
        expect(root.textContent).toContain(tr("over.title"));
        snapshots.over = root.textContent ?? "";
        expect(
          [tr("over.youWin"), tr("over.youLose"), tr("over.draw")].some((x) => root.textContent!.includes(x)),
        ).toBe(true);
        expect(btn(tr("over.rematch"))).toBeDefined();
        console.log(`UI clicks: ${clicks}; moments seen: ${[...seen].join(", ")}`);
        for (const [k, v] of Object.entries(snapshots)) console.log(`--- ${k}\n${v.slice(0, 600)}`);
      } finally {
        clearInterval(botLoop);
        conn.stop();
        render(null, root);
      }
    },
  );
});
