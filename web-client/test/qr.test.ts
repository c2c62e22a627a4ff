import { encode } from "uqr";
import { describe, expect, it } from "vitest";
import { qrModules } from "../src/ui/qr";

describe("QR code of a link", () => {
  it("has the encoder's modules inside a quiet zone", () => {
    const url = "https://evr.example/r/Q7XKMB4R2T/join#0123456789abcdef0123456789abcdef";
    const { size, dark } = qrModules(url);
    const plain = encode(url, { ecc: "M", border: 0 });
    expect(size).toBe(plain.size + 4);
    // Every dark module of the bare code appears shifted by the border, and nothing else.
    const expected = plain.data.flatMap((row, y) => row.flatMap((on, x) => (on ? [`${x + 2},${y + 2}`] : [])));
    expect(dark.map(([x, y]) => `${x},${y}`).sort()).toEqual(expected.sort());
    // The border itself stays light.
    expect(dark.every(([x, y]) => x >= 2 && y >= 2 && x < size - 2 && y < size - 2)).toBe(true);
  });

  it("differs for different links", () => {
    const a = qrModules("https://evr.example/r/AAAAAAAAAA/watch").dark.join(";");
    const b = qrModules("https://evr.example/r/BBBBBBBBBB/watch").dark.join(";");
    expect(a).not.toBe(b);
  });
});
