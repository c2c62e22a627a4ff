import { canonicalCode } from "../net/roomCode";

export type Route =
  | { page: "landing" }
  | { page: "room"; code: string }
  | { page: "join"; code: string; invite: string }
  | { page: "watch"; code: string }
  | { page: "notFound" };

/** `/`, `/r/{code}`, `/r/{code}/join#{invite}`, `/r/{code}/watch`. */
export function parseRoute(pathname: string, hash: string): Route {
  const path = pathname.replace(/\/+$/, "") || "/";
  if (path === "/") return { page: "landing" };
  const m = /^\/r\/([A-Za-z0-9-]+)(\/join|\/watch)?$/.exec(path);
  const code = m ? canonicalCode(m[1]!) : null;
  if (!m || !code) return { page: "notFound" };
  if (m[2] === "/join") return { page: "join", code, invite: hash.replace(/^#/, "") };
  if (m[2] === "/watch") return { page: "watch", code };
  return { page: "room", code };
}
