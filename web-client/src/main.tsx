import { render } from "preact";
import { initLanguage } from "./i18n";
import { defaultStorage } from "./net/env";
import { loadPrefs } from "./state/prefs";
import { App } from "./ui/App";
import { startMotionPref } from "./ui/motion";
import "./ui/styles.css";
import "./ui/moments.css";

loadPrefs(defaultStorage());
startMotionPref();
// the page's texts are in its language's pack, a file of its own (i18n/packs.ts)
await initLanguage(defaultStorage(), navigator.languages ?? [navigator.language]);
render(<App />, document.getElementById("app")!);
