// The text behind a URL for check_capability, for signed-in callers only: fetched through the
// SSRF-safe fetch (https on the default port, public addresses only, every redirect hop checked),
// at most the scanner's cap in bytes and 10 seconds. Any refusal is the caller's to fix, so it is
// validation_failed on `url`, saying why, and nothing is scanned.
import { createLazySafeFetch } from '../../../integrations/safe-fetch/lazy-safe-fetch.ts';
import { MAX_SCAN_TEXT_BYTES } from '../../domain/capability/scan-limits.ts';
import { validationFailed } from '../../domain/errors.ts';

export const CAPABILITY_FETCH_TIMEOUT_MS = 10_000;

// One guarded fetch for the process: never allowed private targets, whatever the sign-in config says.
const fetchPublic = createLazySafeFetch({
  allowPrivateAddresses: false,
  maxResponseBytes: MAX_SCAN_TEXT_BYTES,
  timeoutMs: CAPABILITY_FETCH_TIMEOUT_MS,
});

function refused(why: string): Error {
  return validationFailed(`The url could not be read: ${why}`, {
    url: `${why} Send a public https URL (default port) whose answer is text of at most ${MAX_SCAN_TEXT_BYTES} bytes, or send the text itself as \`text\`.`,
  });
}

export async function textAtUrl(url: string): Promise<string> {
  if (!URL.canParse(url) || new URL(url).protocol !== 'https:') throw refused('it is not an https URL.');
  let response: Response;
  try {
    response = await fetchPublic(url, { redirect: 'follow', headers: { accept: 'text/markdown, text/plain;q=0.9, */*;q=0.1' } });
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? ` (${error.cause.message})` : '';
    throw refused(`the fetch was refused or failed${cause}.`);
  }
  if (!response.ok) throw refused(`it answered HTTP ${response.status}.`);
  try {
    return await response.text();
  } catch {
    throw refused(`its answer is larger than ${MAX_SCAN_TEXT_BYTES} bytes or did not arrive in ${CAPABILITY_FETCH_TIMEOUT_MS} ms.`);
  }
}
