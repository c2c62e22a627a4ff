import { render } from "preact";
import { initLanguage } from "./i18n";
import { defaultStorage } from "./net/env";
import { loadPrefs } from "./state/prefs";
import { App } from "./ui/App";
import { startMotionPref } from "./ui/motion";
// the style sheets, in this order (the browser reads them as one sheet; each begins by saying what it holds)
import "./ui/styles/base.css";
import "./ui/styles/cards.css";
import "./ui/styles/table.css";
import "./ui/styles/panels.css";
import "./ui/styles/pages.css";
import "./ui/styles/moments.css";

loadPrefs(defaultStorage());
startMotionPref();
// the page's texts are in its language's pack, a file of its own (i18n/packs.ts). No top-level await:
// with one, the bundler gives up merging the chunks a part loaded on demand shares with the page (the
// account screens, ui/account/), and the page's script would be split in two.
void initLanguage(defaultStorage(), navigator.languages ?? [navigator.language]).then(() =>
  render(<App />, document.getElementById("app")!),
);
