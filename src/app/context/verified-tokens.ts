// Verified bearer tokens, remembered in process (docs/auth.md § Token look-ups): a token read from
// the store is trusted for at most TOKEN_TRUST_MS, so a call with a recently seen token skips the
// token read and the account read. Keyed by the token's sha256 (its public id), never by the
// token. Bounded staleness: a revocation made by this process forgets the token at once; one made
// elsewhere is seen once the entry is older than TOKEN_TRUST_MS. Expiry is checked on every use.
// Unknown tokens are never remembered: a token minted a moment ago on another instance works here
// at once.
import { epochSeconds } from '../../store/store.ts';

/** How long a token read from the store is trusted without reading it again: the bound on a revocation made elsewhere. */
export const TOKEN_TRUST_MS = 30_000;
/** Entries kept; past it the least recently used goes. A few MB at most (an entry is a Caller and two numbers). */
export const MAX_VERIFIED_TOKENS = 10_000;

/** What is remembered of a token: whatever the caller is (app-context.ts's VerifiedToken), and its own expiry. */
export interface Expiring {
  /** The token's expiry, epoch seconds. */
  expiresAt: number;
}

interface Entry<T> {
  token: T;
  /** When the store was read (epoch ms, the store clock). */
  readAtMs: number;
}

export class VerifiedTokens<T extends Expiring> {
  // A Map iterates in insertion order: re-inserting on use keeps the least recently used first.
  readonly #entries = new Map<string, Entry<T>>();
  #forgotten = 0;

  readonly trustMs: number;
  readonly maxEntries: number;

  constructor(trustMs: number = TOKEN_TRUST_MS, maxEntries: number = MAX_VERIFIED_TOKENS) {
    this.trustMs = trustMs;
    this.maxEntries = maxEntries;
  }

  /** The token as last read, if that was within trustMs and it has not expired since. */
  lookUp(tokenHash: string, nowMs: number): T | undefined {
    const entry = this.#entries.get(tokenHash);
    if (entry === undefined) return undefined;
    this.#entries.delete(tokenHash);
    if (nowMs - entry.readAtMs >= this.trustMs || entry.token.expiresAt <= epochSeconds(nowMs)) return undefined;
    this.#entries.set(tokenHash, entry);
    return entry.token;
  }

  /** Taken before a store read, handed to remember(): a read that a revocation overtook is not remembered. */
  mark(): number {
    return this.#forgotten;
  }

  remember(tokenHash: string, token: T, readAtMs: number, mark: number): void {
    // A forget() since the read began may be the revocation of this very token, which the read missed.
    if (mark !== this.#forgotten) return;
    this.#entries.delete(tokenHash);
    this.#entries.set(tokenHash, { token, readAtMs });
    while (this.#entries.size > this.maxEntries) {
      const oldest = this.#entries.keys().next().value as string;
      this.#entries.delete(oldest);
    }
  }

  /** Called by the revoking code once the token items are deleted: refused from the next call on. */
  forget(tokenHashes: Iterable<string>): void {
    this.#forgotten += 1;
    for (const hash of tokenHashes) this.#entries.delete(hash);
  }

  get size(): number {
    return this.#entries.size;
  }
}
