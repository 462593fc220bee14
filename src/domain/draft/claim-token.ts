// The claim URL's secret (docs/design.md#drafts). A draft is found by the sha256 of its token, the
// only form the store keeps (design.md#data: secrets are hashes). The token is derived from the
// caller's draft_key and 32 random bytes of salt drawn by the first delivery, so a second
// delivery of the same draft_key answers the same claim URL, while the store holds the salt and
// only the sha256 of the draft_key: neither gives the token.
import { createHash, createHmac, randomBytes } from 'node:crypto';

const PREFIX = 'lbc_';
/** 32 bytes of base64url without padding are 43 characters. */
const TOKEN_SHAPE = /^lbc_[A-Za-z0-9_-]{43}$/;
const CLAIM_PATH = /\/claim\/(lbc_[A-Za-z0-9_-]{43})\/?$/;

const sha256Hex = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

export const newClaimSalt = (): string => randomBytes(32).toString('base64url');

/** The token a draft_key of an account stands for, under the salt its first delivery drew. */
export function derivedClaimToken(salt: string, account: string, draftKey: string): string {
  return `${PREFIX}${createHmac('sha256', Buffer.from(salt, 'base64url')).update(`${account}\n${draftKey}`, 'utf8').digest('base64url')}`;
}

/** What the store keeps of a draft_key. */
export const draftKeyHash = (draftKey: string): string => sha256Hex(draftKey);

/** The draft id: the token's sha256, hex. Knowing it does not give the token. */
export const draftIdFor = (token: string): string => sha256Hex(token);

export const claimPath = (token: string): string => `/claim/${token}`;

export const isClaimToken = (value: string): boolean => TOKEN_SHAPE.test(value);

/** The token in a claim URL (any origin: the invitee may paste it from anywhere) or a bare token; undefined when neither. */
export function claimTokenIn(value: string): string | undefined {
  const text = value.trim();
  if (isClaimToken(text)) return text;
  if (!URL.canParse(text)) return undefined;
  return CLAIM_PATH.exec(new URL(text).pathname)?.[1];
}

export const DRAFT_ID_SHAPE = /^[0-9a-f]{64}$/;

/** A draft_key: long enough to be a random id (a UUID is 36 characters), from the op_id alphabet. */
export const DRAFT_KEY_SHAPE = /^[A-Za-z0-9._:-]{16,128}$/;
