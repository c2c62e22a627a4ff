import { render } from "preact";
import { defaultStorage } from "./net/env";
import { initLanguage } from "./i18n";
import { App } from "./ui/App";
import "./ui/styles.css";

initLanguage(defaultStorage(), navigator.languages ?? [navigator.language]);
render(<App />, document.getElementById("app")!);
