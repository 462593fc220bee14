// The caller of a use case that needs an account (list_notifications and every write), for both
// surfaces: the HTTP edge refuses these without a token first; this is the second lock.
import { LorebookError } from '../../domain/errors.ts';
import type { Caller } from '../context/app-context.ts';

export function signedIn(caller: Caller | undefined): Caller {
  if (caller === undefined) {
    throw new LorebookError(
      'unauthenticated',
      'This tool needs a lorebook token. Connect with an Authorization: Bearer header (npm run token -- create --handle you).',
    );
  }
  return caller;
}
