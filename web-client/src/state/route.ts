import { canonicalCode } from "../net/roomCode";

export type Route =
  | { page: "landing" }
  /** `/#/account…`: the account page, or (`sub`) a mailed link's page (ui/account/) */
  | { page: "account"; sub: string }
  /** `/#/friends`, `/#/players/{username}`, `/#/leaderboard`: friends, challenges and ratings, `sub`
   *  read by their part of the page (ui/social/), loaded on demand */
  | { page: "social"; sub: string }
  | { page: "room"; code: string }
  | { page: "join"; code: string; invite: string }
  | { page: "take"; code: string; secret: string }
  | { page: "watch"; code: string }
  | { page: "archive"; code: string }
  | { page: "replay"; code: string; game: number }
  | { page: "notFound" };

/** `/`, `/r/{code}`, `/r/{code}/join#{invite}`, `/r/{code}/take#{secret}` (a seat moved from another
 *  device), `/r/{code}/watch`, `/r/{code}/games` (the room's finished games) and `/r/{code}/games/{n}`
 *  (game n's replay); `/#/account` and the mailed links' `/#/account/sign-in/{secret}` and
 *  `/#/account/confirm/{secret}` (in the fragment, which no server receives); `/#/friends`,
 *  `/#/players/{username}` and `/#/leaderboard`. */
export function parseRoute(pathname: string, hash: string): Route {
  const path = pathname.replace(/\/+$/, "") || "/";
  if (path === "/") {
    if (hash.startsWith("#/account")) return { page: "account", sub: hash.slice(9) };
    // any other page in the fragment is the social part's to read (ui/social/pages.ts), or its 404
    return hash.startsWith("#/") ? { page: "social", sub: hash.slice(2) } : { page: "landing" };
  }
  const m = /^\/r\/([A-Za-z0-9-]+)(\/join|\/take|\/watch|\/games(?:\/([1-9][0-9]{0,5}))?)?$/.exec(path);
  const code = m ? canonicalCode(m[1]!) : null;
  if (!m || !code) return { page: "notFound" };
  if (m[2] === "/join") return { page: "join", code, invite: hash.replace(/^#/, "") };
  if (m[2] === "/take") return { page: "take", code, secret: hash.replace(/^#/, "") };
  if (m[2] === "/watch") return { page: "watch", code };
  if (m[3]) return { page: "replay", code, game: Number(m[3]) };
  if (m[2] === "/games") return { page: "archive", code };
  return { page: "room", code };
}

/** The page of game `game`'s replay in room `code`. */
export function replayPage(code: string, game: number): string {
  return `/r/${code}/games/${game}`;
}
