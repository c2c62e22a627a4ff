import { onDemand } from "./onDemand";

/** The encoder (qr.ts), a file of its own: only the lobby and the move-a-seat panel show QR codes. */
const encoder = onDemand(() => import("./qr").then((m) => m.qrModules));

/** A QR code as an SVG image (dark modules on a light square, as phone cameras expect). Until its
 *  encoder has loaded it is the light square alone, at its final size, so nothing moves when the
 *  code appears. */
export function QrCode({ text, label, px = 168 }: { text: string; label: string; px?: number }) {
  const modules = encoder();
  const { size, dark } = modules ? modules(text) : { size: 1, dark: [] };
  const path = dark.map(([x, y]) => `M${x} ${y}h1v1h-1z`).join("");
  return (
    <svg
      class="qr"
      role="img"
      aria-label={label}
      aria-busy={modules ? undefined : "true"}
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
