// "Play this seat on another device": a one-time link (and its QR code) that seats a phone or a
// tablet in this player's seat, valid for 10 minutes. Both devices keep the seat (proto/PROTOCOL.md,
// *Seats*), so nothing here has to be closed first.
import { useEffect, useRef, useState } from "preact/hooks";
import { errorMessage, t } from "../i18n";
import { ApiError } from "../net/http";
import type { SeatTransfer } from "../net/protocol";
import { QrCode } from "./QrCode";
import { absoluteUrl, api, tokens } from "./services";
import { CopyField, useDismiss } from "./widgets";

/** Seconds from now until `at` (ms since 1970), never below 0. */
function secondsLeft(at: number): number {
  return Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

export function MoveSeat({ code }: { code: string }) {
  const [open, setOpen] = useState(false);
  const [link, setLink] = useState<SeatTransfer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [left, setLeft] = useState(0);
  const menu = useRef<HTMLDetailsElement>(null);
  useDismiss(menu);
  const make = async () => {
    const token = tokens.getToken(code);
    if (!token) return;
    setBusy(true);
    setError(null);
    try {
      const made = await api.transferSeat(code, token);
      setLink(made);
      setLeft(secondsLeft(made.expires_at));
    } catch (err) {
      setError(err instanceof ApiError ? errorMessage(err.code, err.message) : String(err));
    } finally {
      setBusy(false);
    }
  };
  useEffect(() => {
    if (!link) return;
    const id = setInterval(() => setLeft(secondsLeft(link.expires_at)), 1000);
    return () => clearInterval(id);
  }, [link]);
  const expired = link !== null && left === 0;
  return (
    <details
      class="move-seat"
      ref={menu}
      open={open}
      onToggle={(e) => {
        const now = (e.currentTarget as HTMLDetailsElement).open;
        setOpen(now);
        if (now && !link && !busy) void make();
      }}
    >
      <summary>{t("move.button")}</summary>
      <div class="move-seat-panel panel">
        <h2 class="move-title">{t("move.title")}</h2>
        <p class="small">{t("move.explain")}</p>
        {link && !expired && (
          <>
            <QrCode text={absoluteUrl(link.url)} label={t("move.qr")} />
            <CopyField label={t("move.link")} value={absoluteUrl(link.url)} />
            <p class="small muted" aria-live="off">
              {t("move.expires", { m: Math.floor(left / 60), s: String(left % 60).padStart(2, "0") })}
            </p>
          </>
        )}
        {expired && <p class="notice">{t("move.expired")}</p>}
        {error && (
          <p class="error" role="alert">
            {error}
          </p>
        )}
        <p>
          <button type="button" disabled={busy} onClick={() => void make()}>
            {link ? t("move.again") : t("move.make")}
          </button>
        </p>
      </div>
    </details>
  );
}
