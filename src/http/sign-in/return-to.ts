// Where a browser goes after signing in: only a path on this server. Anything else (another
// origin, `//host`, a backslash trick, a scheme) is refused before anything is written, so a
// crafted sign-in link cannot send a freshly signed-in person to someone else's site.
import { validationFailed } from '../../domain/errors.ts';

export const DEFAULT_RETURN_TO = '/account';
const MAX_RETURN_TO = 2_000;

export function safeReturnTo(raw: string | undefined, baseUrl: string): string {
  if (raw === undefined || raw === '') return DEFAULT_RETURN_TO;
  const base = new URL(baseUrl);
  // A path: one leading slash, no second slash or backslash after it (browsers read `/\host` as `//host`).
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this refuses
  const looksLikePath = /^\/(?![/\\])/.test(raw) && !/[\u0000-\u001f\\]/.test(raw) && raw.length <= MAX_RETURN_TO;
  const url = looksLikePath && URL.canParse(raw, baseUrl) ? new URL(raw, baseUrl) : undefined;
  if (url === undefined || url.origin !== base.origin) {
    throw validationFailed('return_to must be a path on this server, like /account or /device?user_code=ABCD-EFGH.', {
      return_to: 'a path starting with a single "/" on this server',
    });
  }
  return `${url.pathname}${url.search}${url.hash}`;
}
