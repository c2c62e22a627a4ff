import { signal } from "@preact/signals";

/** The answer picked in the pending-choice panel (a `choiceKey`), shared with the table's glowing cards. */
export const pendingSelection = signal<string | null>(null);
