// Error texts: every code of the protocol (`ErrorCode`, generated from crates/protocol into proto/ts)
// and the client's own (`LocalErrorCode`, net/protocol.ts) has a text in every pack (pack.ts); a new
// code or language fails `npm run typecheck` until it has them. A code this build does not know (a
// newer server) shows the server's message. The account routes' codes have their texts with the texts of
// accounts (account.ts), which the account screens read first (ui/account/).
import type { Lang } from "./langs";
import { packOf } from "./packs";

/** The text for `code` in `lang`; for a code this build does not know, `fallback` (the server's message), else the code. */
export function errorText(lang: Lang, code: string, fallback: string): string {
  const texts = packOf(lang).errors;
  return Object.hasOwn(texts, code) ? texts[code as keyof typeof texts] : fallback || code;
}
