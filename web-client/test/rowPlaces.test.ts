// A play area's row keeps its cards in place (rowPlaces.ts): what a discard, a card played and the
// end of a struggle do to the places.
import { describe, expect, it } from "vitest";
import type { Card } from "../src/net/protocol";
import { type Place, placeCards } from "../src/ui/rowPlaces";

/** "B*": card B exhausted (sideways) */
const cards = (...names: string[]) => names.map((n) => ({ card: n.replace("*", "") as Card, ready: !n.endsWith("*") }));
const show = (places: Place[]) => places.map((p) => (p.hole ? `_${p.sideways ? "s" : ""}` : p.card)).join(" ");

describe("placeCards", () => {
  it("a new row is the engine's order", () => {
    expect(show(placeCards([], cards("A", "B", "C")))).toBe("A B C");
  });
  it("a card that goes leaves a hole as wide as it was; the cards after it keep their places", () => {
    const row = placeCards([], cards("A", "B*", "C"));
    expect(show(placeCards(row, cards("A", "C")))).toBe("A _s C");
  });
  it("a hole at the end goes; so does the whole row when the area empties", () => {
    const row = placeCards([], cards("A", "B", "C"));
    expect(show(placeCards(row, cards("A", "B")))).toBe("A B");
    expect(placeCards(row, [])).toEqual([]);
  });
  it("the next card played takes the first hole, then the end", () => {
    let row = placeCards([], cards("A", "B", "C", "D"));
    row = placeCards(row, cards("D", "B"));
    expect(show(row)).toBe("_ B _ D");
    row = placeCards(row, cards("D", "B", "E", "F", "G"));
    expect(show(row)).toBe("E B F D G");
  });
  it("a card turning sideways keeps its place; applying the same cards twice changes nothing", () => {
    const row = placeCards(placeCards([], cards("A", "B", "C")), cards("B", "A*", "C"));
    expect(show(row)).toBe("A B C");
    expect(row[0]!.sideways).toBe(true);
    expect(placeCards(row, cards("B", "A*", "C"))).toEqual(row);
  });
});
