import { useEffect } from "preact/hooks";
import { htmlLang, t } from "../i18n";
import { AccountSlot } from "./AccountSlot";
import { ArchivePage } from "./Archive";
import { JoinPage } from "./JoinPage";
import { Landing } from "./Landing";
import { ReplayPage } from "./ReplayPage";
import { RoomPage } from "./RoomPage";
import { route } from "./router";
import { TakePage } from "./TakePage";
import { LanguagePicker } from "./widgets";

export function App() {
  const r = route.value;
  const l = htmlLang.value;
  useEffect(() => {
    document.documentElement.lang = l;
  }, [l]);
  switch (r.page) {
    case "landing":
      return <Landing />;
    case "account":
      return <AccountSlot at="page" sub={r.sub} />;
    case "social":
      return <AccountSlot at="social" sub={r.sub} />;
    case "join":
      return <JoinPage code={r.code} invite={r.invite} />;
    case "take":
      return <TakePage code={r.code} secret={r.secret} />;
    case "room":
      return <RoomPage key={`seat${r.code}`} code={r.code} watch={false} />;
    case "watch":
      return <RoomPage key={`watch${r.code}`} code={r.code} watch={true} />;
    case "archive":
      return <ArchivePage code={r.code} />;
    case "replay":
      return <ReplayPage key={`replay${r.code}/${r.game}`} code={r.code} game={r.game} />;
    default:
      return (
        <main class="page narrow">
          <div class="topline">
            <LanguagePicker />
          </div>
          <h1>404</h1>
          <p>
            <a href="/">{t("common.back")}</a>
          </p>
        </main>
      );
  }
}
