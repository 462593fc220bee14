// The claim URL's secret (docs/design.md §12). A draft is found by the sha256 of its token, the
// only form the store keeps (design §3: secrets are hashes). Without an op_id the token is 32
// random bytes; with one it is derived from the op_id and a random salt, so a second delivery
// of the same op_id answers the same claim URL while neither the token nor the op_id is stored
// in clear (the op record is keyed by the op_id's hash, claimOpKey).
import { createHash, createHmac, randomBytes } from 'node:crypto';

const PREFIX = 'lbc_';
/** 32 bytes of base64url without padding are 43 characters. */
const TOKEN_SHAPE = /^lbc_[A-Za-z0-9_-]{43}$/;
const CLAIM_PATH = /\/claim\/(lbc_[A-Za-z0-9_-]{43})\/?$/;

const sha256Hex = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

export const newClaimToken = (): string => `${PREFIX}${randomBytes(32).toString('base64url')}`;
export const newClaimSalt = (): string => randomBytes(32).toString('base64url');

/** The token a given op_id of a given account stands for, under the salt its first delivery drew. */
export function derivedClaimToken(salt: string, account: string, opId: string): string {
  return `${PREFIX}${createHmac('sha256', Buffer.from(salt, 'base64url')).update(`${account}\n${opId}`, 'utf8').digest('base64url')}`;
}

/** The draft id: the token's sha256, hex. Knowing it does not give the token. */
export const draftIdFor = (token: string): string => sha256Hex(token);

/** What the op record of a draft's creation is keyed by: the op_id would otherwise sit in clear beside the salt. */
export const claimOpKey = (opId: string): string => `draft:${sha256Hex(opId)}`;

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
