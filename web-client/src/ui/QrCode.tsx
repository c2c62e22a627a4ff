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

/** A QR code as an SVG image (dark modules on a light square, as phone cameras expect). */
export function QrCode({ text, label, px = 168 }: { text: string; label: string; px?: number }) {
  const { size, dark } = qrModules(text);
  const path = dark.map(([x, y]) => `M${x} ${y}h1v1h-1z`).join("");
  return (
    <svg
      class="qr"
      role="img"
      aria-label={label}
      width={px}
      height={px}
      viewBox={`0 0 ${size} ${size}`}
      shape-rendering="crispEdges"
    >
      <rect width={size} height={size} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}
