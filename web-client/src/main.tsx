import { render } from "preact";
import { initLanguage } from "./i18n";
import { defaultStorage } from "./net/env";
import { loadPrefs } from "./state/prefs";
import { App } from "./ui/App";
import { startMotionPref } from "./ui/motion";
import "./ui/styles.css";
import "./ui/moments.css";

initLanguage(defaultStorage(), navigator.languages ?? [navigator.language]);
loadPrefs(defaultStorage());
startMotionPref();
render(<App />, document.getElementById("app")!);
