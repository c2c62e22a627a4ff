import { describe, expect, it } from "vitest";
import { canonicalCode, displayCode } from "../src/net/roomCode";
import { parseRoute } from "../src/state/route";

describe("room codes", () => {
  it("are read as people type them: any case, grouped or not, O for 0 and I or L for 1", () => {
    for (const typed of ["KJCHM97E", "kjch-m97e", " KJCH M97E ", "https://evr.example/r/KJCH-M97E/watch"]) {
      expect(canonicalCode(typed), typed).toBe("KJCHM97E");
    }
    expect(canonicalCode("1o1I-l0ab")).toBe("101110AB");
    expect(canonicalCode("KJCH-M97")).toBeNull();
    expect(canonicalCode("KJCH-U97E")).toBeNull();
    expect(canonicalCode("Q7XKMB4a2T")).toBe("Q7XKMB4a2T"); // a room made before, kept exactly
  });

  it("are shown in two groups of four", () => {
    expect(displayCode("KJCHM97E")).toBe("KJCH-M97E");
    expect(displayCode("Q7XKMB4a2T")).toBe("Q7XKMB4a2T");
  });

  it("in a link lead to the room whatever their case", () => {
    expect(parseRoute("/r/kjch-m97e", "")).toEqual({ page: "room", code: "KJCHM97E" });
    expect(parseRoute("/r/KJCHM97E/join", "#sec")).toEqual({ page: "join", code: "KJCHM97E", invite: "sec" });
    expect(parseRoute("/r/nope", "")).toEqual({ page: "notFound" });
  });
});
