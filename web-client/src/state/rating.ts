// How a rating reads (the game-over panel, a player's page; the table writes it the same way,
// ui/Table.tsx): "1500?" while provisional (deviation 110 or more, the server decides).
import type { RatingShown } from "../net/protocol";

/** "1500" or, while the rating is provisional, "1500?". */
export function ratingText(r: Pick<RatingShown, "rating" | "provisional">): string {
  return `${r.rating}${r.provisional ? "?" : ""}`;
}
