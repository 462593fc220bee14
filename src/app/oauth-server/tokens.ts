// Token management for the admin CLI (docs/design.md#surfaces "an admin CLI issues them"): create, list,
// revoke. A token is bound to an account; creating one for a new handle creates the local
// account. Only the sha256 of a token is stored; the plaintext is in the create answer only.

import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { handleSchema } from '../../auth/handle.ts';
import { isTokenId, isWellFormedToken, mintToken, tokenId } from '../../auth/token-secret.ts';
import { LorebookError } from '../../domain/errors.ts';
import { accountStillHere } from '../../store/identity/account/deletion-items.ts';
import { createAccount } from '../../store/identity/account/items.ts';
import { claimHandle, handleKey, toHandleClaim } from '../../store/identity/handle-items.ts';
import {
  createTokenItems,
  deleteTokenItems,
  queryAccountTokens,
  type StoredToken,
  tokenKey,
  toStoredToken,
} from '../../store/identity/token-items.ts';
import { accountKey } from '../../store/keys.ts';
import { readItem } from '../../store/read-items.ts';
import { writeAtomically } from '../../store/run-write.ts';
import { epochSeconds } from '../../store/store.ts';
import { WriteCancelled } from '../../store/write-cancelled.ts';
import { credentialRefusal } from '../caller/account-standing.ts';
import type { AppContext } from '../context/app-context.ts';
import { parseInput } from '../input/parse-input.ts';

/** A token lives at most a year; every token has an expiry. */
export const MAX_TOKEN_LIFETIME_SECONDS = 365 * 24 * 60 * 60;

export const createTokenInputSchema = z.strictObject({
  handle: handleSchema,
  expiresInSeconds: z
    .number()
    .int('a whole number of seconds')
    .positive('a token must live at least a second')
    .max(MAX_TOKEN_LIFETIME_SECONDS, `a token lives at most ${MAX_TOKEN_LIFETIME_SECONDS} seconds (365 days)`)
    .describe('How long the token is valid, in seconds.'),
  client: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .regex(/^[\x20-\x7e]+$/, 'printable ASCII only')
    .optional()
    .describe('Who the token is for (e.g. "claude-code"); shown in token lists.'),
});
export type CreateTokenInput = z.input<typeof createTokenInputSchema>;

export const listTokensInputSchema = z.strictObject({ handle: handleSchema });
export type ListTokensInput = z.input<typeof listTokensInputSchema>;

export const revokeTokenInputSchema = z.strictObject({
  token_id: z
    .string()
    .trim()
    .refine((value) => isTokenId(value) || isWellFormedToken(value), 'a token id from `token list` (64 hex characters) or the token itself')
    .describe('The token id shown by `token list`, or the token itself.'),
});
export type RevokeTokenInput = z.input<typeof revokeTokenInputSchema>;

export interface CreatedToken {
  /** The plaintext bearer token: shown once, never stored. */
  token: string;
  token_id: string;
  account: string;
  handle: string;
  /** ISO 8601. */
  expires_at: string;
}

export interface TokenSummary {
  token_id: string;
  client?: string;
  created_at: string;
  expires_at: string;
}

export interface TokenList {
  account: string;
  handle: string;
  /** Live tokens, oldest first; expired and revoked ones are gone. */
  tokens: TokenSummary[];
}

export interface RevokedToken {
  token_id: string;
  /** false: no live token had this id (already revoked, expired, or never issued). */
  revoked: boolean;
}

/** Local account ids: stable, generated once per handle, never derived from the handle. */
export function newAccountId(): string {
  return `acct_${randomBytes(10).toString('hex')}`;
}

export async function createToken(ctx: AppContext, rawInput: CreateTokenInput): Promise<CreatedToken> {
  const input = parseInput(createTokenInputSchema, rawInput, 'token create');
  for (let attempt = 1; attempt <= ctx.config.maxWriteAttempts; attempt += 1) {
    const now = ctx.store.now();
    const claimed = await readItem(ctx.store, handleKey(input.handle));
    const account = claimed === undefined ? newAccountId() : toHandleClaim(claimed).account;
    const token = mintToken();
    const stored: StoredToken = {
      token_hash: tokenId(token),
      account,
      ...(input.client === undefined ? {} : { client: input.client }),
      created_at: new Date(now).toISOString(),
      expires_at: epochSeconds(now) + input.expiresInSeconds,
    };
    // A new handle: the handle claim, the account and the token commit together, so a crash
    // never leaves an account without its handle or a token without its account.
    const newAccount =
      claimed === undefined
        ? [
            claimHandle({ handle: input.handle, account, created_at: stored.created_at }),
            createAccount({ id: account, handle: input.handle, created_at: stored.created_at }),
          ]
        : [];
    try {
      // An existing account: not while it is being deleted (design.md#account-deletion). Its handle item goes with it, so a handle of a deleted account starts a new one.
      const standing = claimed === undefined ? [] : [accountStillHere(account)];
      await writeAtomically(ctx.store, [...newAccount, ...createTokenItems(stored), ...standing]);
      return { token, token_id: stored.token_hash, account, handle: input.handle, expires_at: isoSeconds(stored.expires_at) };
    } catch (error) {
      if (!(error instanceof WriteCancelled)) throw error;
      const refused = error.conditionFailedOn(accountKey(account));
      if (refused !== undefined) throw credentialRefusal(refused.item);
      // Another create claimed the handle first: re-read it and issue the token to that account.
      if (error.onlyTransactionConflicts) await ctx.sleep(Math.ceil(ctx.random() * ctx.config.conflictBackoffMs * 2 ** attempt));
    }
  }
  throw new LorebookError(
    'conflict',
    'Other token creations for this handle kept landing at the same moment. Nothing was issued: run the command again.',
    {
      retryAfterMs: ctx.config.conflictBackoffMs,
    },
  );
}

export async function listTokens(ctx: AppContext, rawInput: ListTokensInput): Promise<TokenList> {
  const input = parseInput(listTokensInputSchema, rawInput, 'token list');
  const claimed = await readItem(ctx.store, handleKey(input.handle));
  if (claimed === undefined) {
    throw new LorebookError(
      'not_found',
      `No local account has the handle "${input.handle}". Create one with \`npm run token -- create --handle ${input.handle}\`.`,
      {
        details: { handle: input.handle },
      },
    );
  }
  const { account } = toHandleClaim(claimed);
  const tokens = await queryAccountTokens(ctx.store, account);
  return { account, handle: input.handle, tokens: tokens.map(summary) };
}

/** Deletes the token and its listing item; a second revoke answers `revoked: false` and writes nothing. */
export async function revokeToken(ctx: AppContext, rawInput: RevokeTokenInput): Promise<RevokedToken> {
  const input = parseInput(revokeTokenInputSchema, rawInput, 'token revoke');
  const id = isTokenId(input.token_id) ? input.token_id : tokenId(input.token_id);
  for (let attempt = 1; attempt <= ctx.config.maxWriteAttempts; attempt += 1) {
    const item = await readItem(ctx.store, tokenKey(id));
    if (item === undefined) return { token_id: id, revoked: false };
    try {
      await writeAtomically(ctx.store, deleteTokenItems(toStoredToken(item)));
      return { token_id: id, revoked: true };
    } catch (error) {
      // A concurrent revoke deleted it first: the re-read finds nothing and says so.
      if (!(error instanceof WriteCancelled)) throw error;
    } finally {
      ctx.verifiedTokens?.forget([id]);
    }
  }
  throw new LorebookError('conflict', 'The token kept changing while it was being revoked. Run the command again.', {
    retryAfterMs: ctx.config.conflictBackoffMs,
  });
}

function summary(token: StoredToken): TokenSummary {
  return {
    token_id: token.token_hash,
    ...(token.client === undefined ? {} : { client: token.client }),
    created_at: token.created_at,
    expires_at: isoSeconds(token.expires_at),
  };
}

const isoSeconds = (epoch: number): string => new Date(epoch * 1000).toISOString();
