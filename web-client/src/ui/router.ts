import { signal } from "@preact/signals";
import { parseRoute, type Route } from "../state/route";

export const route = signal<Route>(parseRoute(location.pathname, location.hash));

export function navigate(path: string, replace = false): void {
  if (replace) history.replaceState(null, "", path);
  else history.pushState(null, "", path);
  route.value = parseRoute(location.pathname, location.hash);
}

addEventListener("popstate", () => {
  route.value = parseRoute(location.pathname, location.hash);
});
