// What secretlint's recommended preset (13.1.0) misses, measured on the credentials in
// test/helpers/fake-secrets.ts (docs/design.md#secrets, BENCHMARKS.md §10): lorebook's own bearer
// tokens (the credential an agent writing to lorebook holds for sure), Google API keys (the preset
// has no rule for `AIza…`), JWTs (no rule either; a signed one is a bearer credential until it
// expires), and an AWS secret access key that ends in `+` or `/` (1 in 32 of them: the preset's
// pattern ends with \b, which never follows those characters).
import type { SecretKind } from './secret-kinds.ts';

export interface PatternMatch extends SecretKind {
  start: number;
  end: number;
}

const B64URL = 'A-Za-z0-9_\\-';

const PATTERNS: ReadonlyArray<{ pattern: RegExp; kind: SecretKind; accept?: (match: string) => boolean }> = [
  {
    // The preset's own shape (a name like AWS_SECRET_ACCESS_KEY, `=` or `:`, 40 characters), ended
    // by what cannot continue the key instead of \b.
    pattern:
      /(?:AWS|aws|Aws)?_?(?:SECRET|secret|Secret)_?(?:ACCESS|access|Access)_?(?:KEY|key|Key)["']?\s*(?::|=>|=)\s*["']?[A-Za-z0-9/+=]{40}(?![A-Za-z0-9/+=])/g,
    kind: { kind: 'aws_secret_access_key', label: 'AWS secret access key' },
  },
  {
    // src/auth/token-secret.ts: `lbk_` + 43 base64url characters.
    pattern: new RegExp(`(?<![${B64URL}])lbk_[${B64URL}]{43}(?![${B64URL}])`, 'g'),
    kind: { kind: 'lorebook_token', label: 'lorebook token' },
  },
  {
    pattern: new RegExp(`(?<![${B64URL}])AIza[${B64URL}]{35}(?![${B64URL}])`, 'g'),
    kind: { kind: 'google_api_key', label: 'Google API key' },
  },
  {
    // Header and payload are base64url JSON objects (`eyJ` is `{"`), the signature at least 128 bits.
    pattern: new RegExp(`(?<![${B64URL}.])eyJ[${B64URL}]{8,}\\.eyJ[${B64URL}]{8,}\\.[${B64URL}]{22,}`, 'g'),
    kind: { kind: 'jwt', label: 'Signed JWT' },
    accept: isSignedJwtHeader,
  },
];

/** A header naming a signing algorithm: the `eyJ…` that is not a JWT (a base64 JSON blob) passes. */
function isSignedJwtHeader(token: string): boolean {
  const header = token.slice(0, token.indexOf('.'));
  try {
    const parsed: unknown = JSON.parse(Buffer.from(header, 'base64url').toString('utf8'));
    return (
      typeof parsed === 'object' &&
      parsed !== null &&
      typeof (parsed as { alg?: unknown }).alg === 'string' &&
      (parsed as { alg: string }).alg !== 'none'
    );
  } catch {
    return false;
  }
}

export function extraSecretMatches(text: string): PatternMatch[] {
  const found: PatternMatch[] = [];
  for (const { pattern, kind, accept } of PATTERNS) {
    for (const match of text.matchAll(pattern)) {
      if (accept !== undefined && !accept(match[0])) continue;
      found.push({ ...kind, start: match.index, end: match.index + match[0].length });
    }
  }
  return found;
}
