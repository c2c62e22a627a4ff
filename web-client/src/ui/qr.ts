// The QR encoder (uqr), in a file of the build of its own: only the lobby and the move-a-seat panel
// show a QR code, so the page loads it when one of them opens (QrCode.tsx).
import { encode } from "uqr";

/** Module rows of a QR code for `text`, with the quiet zone scanners need around it. */
export function qrModules(text: string): { size: number; dark: [number, number][] } {
  const qr = encode(text, { border: 2, ecc: "M" });
  const dark: [number, number][] = [];
  for (const [y, row] of qr.data.entries()) {
    for (const [x, on] of row.entries()) if (on) dark.push([x, y]);
  }
  return { size: qr.size, dark };
}
