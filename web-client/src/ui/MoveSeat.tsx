// "Another device": a one-time link (and its QR code) that seats a phone or a tablet in this player's
// seat, valid for 10 minutes, and the devices the seat is played on, with a way to sign the others
// out (a link that leaked stops working). Both devices keep a moved seat (proto/PROTOCOL.md, *Seats*),
// so nothing here has to be closed first. The panel's texts arrive when it is first opened
// (i18n/seatPanel.ts).
import { useEffect, useRef, useState } from "preact/hooks";
import { errorMessage, lang, t } from "../i18n";
import { loadSeatPanel, seatPanelIn } from "../i18n/seatPanel";
import { ApiError } from "../net/http";
import type { SeatDevices, SeatTransfer } from "../net/protocol";
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
  const [devices, setDevices] = useState<SeatDevices | null>(null);
  // the warning before the others are signed out is showing; then how many were
  const [asking, setAsking] = useState(false);
  const [signedOut, setSignedOut] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [left, setLeft] = useState(0);
  const menu = useRef<HTMLDetailsElement>(null);
  useDismiss(menu);
  const text = seatPanelIn(lang.value);
  if (open && !text) void loadSeatPanel(lang.value).catch(() => {});
  /** Runs `ask` with this device's seat token; a refusal is shown in the panel. */
  const run = async (ask: (token: string) => Promise<void>) => {
    const token = tokens.getToken(code);
    if (!token) return;
    setBusy(true);
    setError(null);
    try {
      await ask(token);
    } catch (err) {
      setError(err instanceof ApiError ? errorMessage(err.code, err.message) : String(err));
    } finally {
      setBusy(false);
    }
  };
  const list = (token: string) => api.seatDevices(code, token).then(setDevices);
  const make = () =>
    run(async (token) => {
      const made = await api.transferSeat(code, token);
      setLink(made);
      setLeft(secondsLeft(made.expires_at));
      await list(token);
    });
  const signOut = () =>
    run(async (token) => {
      const out = await api.signOutOthers(code, token);
      // the link shown was the seat's unused one: it went with the others
      setLink(null);
      setAsking(false);
      setSignedOut(out.devices);
      await list(token);
    });
  useEffect(() => {
    if (!link) return;
    const id = setInterval(() => setLeft(secondsLeft(link.expires_at)), 1000);
    return () => clearInterval(id);
  }, [link]);
  const expired = link !== null && left === 0;
  const others = devices ? devices.devices.length - 1 : 0;
  return (
    <details
      class="move-seat"
      ref={menu}
      open={open}
      onToggle={(e) => {
        const now = (e.currentTarget as HTMLDetailsElement).open;
        setOpen(now);
        setSignedOut(null);
        if (now && !link && !busy) void make();
      }}
    >
      <summary>{t("move.button")}</summary>
      <div class="move-seat-panel panel">
        {!text ? (
          <p aria-live="polite">{t("rooms.loading")}</p>
        ) : (
          <>
            <h2 class="move-title">{text.title}</h2>
            <p class="small">{text.explain}</p>
            {link && !expired && (
              <>
                <QrCode text={absoluteUrl(link.url)} label={text.qr} />
                <CopyField label={text.link} value={absoluteUrl(link.url)} />
                <p class="small muted" aria-live="off">
                  {text.expires(Math.floor(left / 60), String(left % 60).padStart(2, "0"))}
                </p>
              </>
            )}
            {expired && <p class="notice">{text.expired}</p>}
            <p>
              <button type="button" disabled={busy} onClick={() => void make()}>
                {link ? text.again : text.make}
              </button>
            </p>
            {devices && (
              <section class="devices" aria-label={text.devices}>
                <h3 class="move-title">{text.devices}</h3>
                <ul>
                  {devices.devices.map((d, i) => (
                    <li key={i}>{text.device(d)}</li>
                  ))}
                </ul>
                {signedOut !== null && <p role="status">{text.signedOut(signedOut)}</p>}
                {others === 0 ? (
                  <p class="small muted">{text.alone}</p>
                ) : asking ? (
                  <>
                    <p class="small">{text.signOutWarning}</p>
                    <p class="row">
                      <button type="button" class="sign-out" disabled={busy} onClick={() => void signOut()}>
                        {text.signOutConfirm}
                      </button>
                      <button type="button" onClick={() => setAsking(false)}>
                        {text.cancel}
                      </button>
                    </p>
                  </>
                ) : (
                  <p>
                    <button type="button" onClick={() => setAsking(true)}>
                      {text.signOut}
                    </button>
                  </p>
                )}
              </section>
            )}
          </>
        )}
        {error && (
          <p class="error" role="alert">
            {error}
          </p>
        )}
      </div>
    </details>
  );
}
