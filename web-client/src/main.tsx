import { render } from "preact";
import { initLanguage } from "./i18n";
import { defaultStorage } from "./net/env";
import { App } from "./ui/App";
import "./ui/styles.css";

initLanguage(defaultStorage(), navigator.languages ?? [navigator.language]);
render(<App />, document.getElementById("app")!);
