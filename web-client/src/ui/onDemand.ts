import { signal } from "@preact/signals";

/**
 * A value from a file of the build that is loaded the first time it is asked for: a part of the page
 * few visits need (the QR encoder) stays out of what every visit downloads. The
 * returned function gives `null` until the file has arrived; a component that called it renders again
 * then. A load that fails (offline) is tried again at the next call.
 */
export function onDemand<T>(load: () => Promise<T>): () => T | null {
  const value = signal<T | null>(null);
  let loading = false;
  return () => {
    if (value.value === null && !loading) {
      loading = true;
      load().then(
        (v) => {
          value.value = v;
        },
        () => {
          loading = false;
        },
      );
    }
    return value.value;
  };
}
