// The site's emblem, our own design (no Lucasfilm logo or art): a disc split by a diagonal into the
// Rebellion's amber and the Empire's steel blue, a six-pointed star on the amber half and a hexagon
// on the blue one — the two sides' marks beside the players' names (moments.css).
export function Emblem({ size = 40 }: { size?: number }) {
  return (
    <svg class="emblem" width={size} height={size} viewBox="0 0 40 40" aria-hidden="true" focusable="false">
      <defs>
        <clipPath id="emblem-disc">
          <circle cx="20" cy="20" r="19" />
        </clipPath>
      </defs>
      <g clip-path="url(#emblem-disc)">
        <rect width="40" height="40" fill="#1b2a3a" />
        <polygon points="0,0 40,0 0,40" fill="#3a2414" />
        <line x1="40" y1="0" x2="0" y2="40" stroke="#ffd166" stroke-width="1.5" />
      </g>
      <circle cx="20" cy="20" r="19" fill="none" stroke="#2c3548" stroke-width="2" />
      <polygon
        points="13,6.5 14.6,10.2 18.6,10.5 15.5,13 16.5,17 13,14.8 9.5,17 10.5,13 7.4,10.5 11.4,10.2"
        fill="#f08a3c"
      />
      <polygon
        points="27,21 31.3,23.5 31.3,28.5 27,31 22.7,28.5 22.7,23.5"
        fill="none"
        stroke="#8fb0cf"
        stroke-width="2"
      />
    </svg>
  );
}
