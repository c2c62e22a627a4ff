export interface BackoffOptions {
  /** First delay, before jitter (ms). */
  baseMs: number;
  /** Upper bound of the un-jittered delay (ms). */
  maxMs: number;
  /** Growth per attempt. */
  factor: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { baseMs: 500, maxMs: 15_000, factor: 2 };

/**
 * Delay before reconnect attempt `attempt` (0-based): exponential, capped, with "equal jitter"
 * (half fixed, half random) so many clients do not reconnect in lockstep. `random` is in [0, 1).
 */
export function backoffDelay(attempt: number, random: number, opts: BackoffOptions = DEFAULT_BACKOFF): number {
  const capped = Math.min(opts.maxMs, opts.baseMs * opts.factor ** Math.max(0, attempt));
  return Math.round(capped / 2 + (capped / 2) * random);
}
