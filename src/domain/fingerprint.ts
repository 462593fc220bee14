import { createHash } from 'node:crypto';
import { canonicalJson } from './canonical-json.ts';

/** Bump when what goes into the fingerprint changes, so old op records are told apart. */
export const FINGERPRINT_VERSION = 'v1';

/**
 * The op record fingerprint (docs/design.md#write-rules): `v1:` + sha256 hex of the canonical JSON of
 * `{ tool, input }`. The caller passes the normalised input (defaults applied, markdown
 * normalised, measurement fields dropped) so a replay that means the same thing matches.
 */
export function fingerprint(tool: string, normalisedInput: unknown): string {
  const digest = createHash('sha256')
    .update(canonicalJson({ tool, input: normalisedInput }), 'utf8')
    .digest('hex');
  return `${FINGERPRINT_VERSION}:${digest}`;
}
