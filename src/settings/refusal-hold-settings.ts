// How long and how many refused oversized requests are held before their answer (src/http/refusal-hold.ts,
// docs/design.md#admission). Settings: LOREBOOK_REFUSAL_HOLD_MS, _PER_ADDRESS, _TOTAL.
export interface RefusalHoldSettings {
  /** The longest a refusal is held; a 429 is held at most its retry_after_ms. */
  holdMs: number;
  /** Held at once from one client address; past it a new one is closed unanswered. */
  perAddress: number;
  /** Held at once from all addresses together; past it a new one is closed unanswered. */
  total: number;
}

export const DEFAULT_REFUSAL_HOLD: RefusalHoldSettings = { holdMs: 10_000, perAddress: 64, total: 1024 };
