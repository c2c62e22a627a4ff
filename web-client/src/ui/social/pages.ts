// The social pages' addresses, read from the fragment's rest (state/route.ts gives `friends`,
// `players/{username}` or `leaderboard` as `sub`): parsed here, in the part loaded on demand, so the
// page's own script carries one pattern for all of them.
export type SocialPage =
  | { page: "friends" }
  | { page: "player"; username: string }
  | { page: "leaderboard" }
  | { page: "notFound" };

export function socialPage(sub: string): SocialPage {
  if (sub === "friends") return { page: "friends" };
  if (sub === "leaderboard") return { page: "leaderboard" };
  const player = /^players\/([^/]+)$/.exec(sub);
  if (player) {
    try {
      return { page: "player", username: decodeURIComponent(player[1]!) };
    } catch {
      return { page: "notFound" };
    }
  }
  return { page: "notFound" };
}

/** A player's public page (their rating and rated games). */
export function playerPage(username: string): string {
  return `/#/players/${encodeURIComponent(username)}`;
}
