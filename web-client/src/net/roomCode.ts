// Room codes as people type and read them, the same reading as the server's
// (crates/server/src/secrets.rs): 8 characters of Crockford's base32 shown as two groups
// (`KJCH-M97E`), read in any case, with O taken as 0 and I or L as 1. Rooms made before this format
// keep their exact 10-character codes.
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const LEGACY = /^[2-9A-HJKMNP-TV-Zab]{10}$/;

/** The code a person meant (a pasted room link works too), or `null` if it cannot be one. */
export function canonicalCode(typed: string): string | null {
  const kept = typed
    .trim()
    .replace(/^.*\/r\//, "")
    .replace(/[/#].*$/, "")
    .replace(/[-\s]/g, "");
  if (LEGACY.test(kept)) return kept;
  const code = kept.toUpperCase().replace(/O/g, "0").replace(/[IL]/g, "1");
  return code.length === 8 && [...code].every((c) => ALPHABET.includes(c)) ? code : null;
}

/** A code as people read it: two groups of four. */
export function displayCode(code: string): string {
  return code.length === 8 ? `${code.slice(0, 4)}-${code.slice(4)}` : code;
}
