import type { RefObject } from "preact";
import { useEffect, useId, useState } from "preact/hooks";
import { LANGS, type Lang, lang, type Names, setLanguage, sideName, t } from "../i18n";
import type { Faction } from "../net/protocol";
import { MAX_NAME_CHARS } from "../net/protocol";

export function LanguagePicker() {
  return (
    <label class="lang">
      <span class="sr-only">{t("common.language")}</span>
      <select
        aria-label={t("common.language")}
        value={lang.value}
        onChange={(e) => setLanguage((e.currentTarget as HTMLSelectElement).value as Lang)}
      >
        {LANGS.map((l) => (
          <option key={l.id} value={l.id} lang={l.id}>
            {l.label}
          </option>
        ))}
      </select>
    </label>
  );
}

export function CopyField({ label, value }: { label: string; value: string }) {
  const [copied, setCopied] = useState(false);
  // (an id made of the label's ASCII letters was "f" for both fields in 繁體中文 and 日本語: the second had no label)
  const id = useId();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    } catch {
      const el = document.getElementById(id) as HTMLInputElement | null;
      el?.select();
    }
  };
  return (
    <div class="copyfield">
      <label for={id}>{label}</label>
      <div class="row">
        <input id={id} readOnly value={value} onFocus={(e) => (e.currentTarget as HTMLInputElement).select()} />
        <button type="button" onClick={copy}>
          {copied ? t("common.copied") : t("common.copy")}
        </button>
      </div>
      <span class="sr-only" aria-live="polite">
        {copied ? t("common.copied") : ""}
      </span>
    </div>
  );
}

/** The style of a numbered list of up to `count` items: room on the left for its longest number
 * ("237." was drawn as "37." with a fixed indent). */
export function numbered(count: number): { paddingLeft: string } {
  return { paddingLeft: `${String(Math.max(count, 1)).length + 2}ch` };
}

/** The player's display name, optional: prefilled with the name this device remembers. */
export function NameField(props: { id: string; value: string; onInput: (v: string) => void }) {
  return (
    <p class="namefield">
      <label for={props.id}>{t("name.label")}</label>{" "}
      <input
        id={props.id}
        name="name"
        value={props.value}
        maxLength={MAX_NAME_CHARS}
        autoComplete="nickname"
        placeholder={t("name.placeholder")}
        onInput={(e) => props.onInput((e.currentTarget as HTMLInputElement).value)}
      />
    </p>
  );
}

/** `typed` as the name to send: trimmed, `null` when empty (the side name stays the default). */
export function nameToSend(typed: string): string | null {
  const name = typed.trim();
  return name === "" ? null : name;
}

/** Closes an open `<details>` menu on Escape or a click outside it, as menus do. */
export function useDismiss(ref: RefObject<HTMLDetailsElement | null>) {
  useEffect(() => {
    const close = () => {
      const d = ref.current;
      if (!d?.open) return;
      d.open = false;
      d.querySelector("summary")?.focus({ preventScroll: true });
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape" && ref.current?.open) close();
    };
    const onPointer = (e: Event) => {
      const d = ref.current;
      if (d?.open && e.target instanceof Node && !d.contains(e.target)) d.open = false;
    };
    addEventListener("keydown", onKey);
    addEventListener("pointerdown", onPointer);
    return () => {
      removeEventListener("keydown", onKey);
      removeEventListener("pointerdown", onPointer);
    };
  }, [ref]);
}

/** A player in a heading: their name (cut with an ellipsis when the column is narrow; the whole of it
 *  in the title) and their side, which always shows; without a name just the side. Text, never markup. */
export function PlayerName({ f, names }: { f: Faction; names: Names }) {
  const name = names[f === "rebel" ? 0 : 1];
  if (!name) return <>{sideName(f)}</>;
  return (
    <>
      <bdi class="pname" title={name}>
        {name}
      </bdi>
      <span class="pside">{t("player.side", { side: sideName(f) })}</span>
    </>
  );
}

/** While `ref`'s element is fixed to the bottom of the screen (a phone's action bar, the replay's
 *  controls), its height is the page's `--bar-h`: the page keeps that much room at its end and
 *  scrolling keeps controls clear of it, whatever the bar's text wraps to. */
export function useBottomBarRoom(ref: RefObject<HTMLElement | null>) {
  useBarHeight(ref, "--bar-h", whenFixed);
}

const whenFixed = (el: HTMLElement) => getComputedStyle(el).position === "fixed";
const always = () => true;

/** The sticky header's height is the page's `--top-h`: scrolling a control into view stops below it
 *  (a phone's header wraps onto two or three lines). */
export function useHeaderRoom(ref: RefObject<HTMLElement | null>) {
  useBarHeight(ref, "--top-h", always);
}

function useBarHeight(ref: RefObject<HTMLElement | null>, name: string, counts: (el: HTMLElement) => boolean) {
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === "undefined") return;
    const root = document.documentElement;
    const measure = () => {
      if (counts(el)) root.style.setProperty(name, `${Math.ceil(el.getBoundingClientRect().height)}px`);
      else root.style.removeProperty(name);
    };
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    addEventListener("resize", measure);
    measure();
    return () => {
      ro.disconnect();
      removeEventListener("resize", measure);
      root.style.removeProperty(name);
    };
  }, [ref, name, counts]);
}

/** Whether the media query matches, kept current as the window changes (false where there is no
 *  `matchMedia`). */
export function useMedia(query: string): boolean {
  const get = () => typeof matchMedia === "function" && matchMedia(query).matches;
  const [matches, setMatches] = useState(get);
  useEffect(() => {
    if (typeof matchMedia !== "function") return;
    const list = matchMedia(query);
    const changed = () => setMatches(list.matches);
    changed();
    list.addEventListener("change", changed);
    return () => list.removeEventListener("change", changed);
  }, [query]);
  return matches;
}
