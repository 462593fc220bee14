// Where the capability re-scan for one scanner version has got to (docs/design.md#data, "re-scan
// job"): a walk's position, so a job that was stopped (a killed CLI, a Lambda timeout) resumes
// where it was instead of reading the table again, and a finished walk costs one GetItem per run.
// Moved only from the position read: two jobs walking at once never move it backwards.
import type { PutAction, StoredItem } from '../actions.ts';
import { itemAbsent } from '../condition.ts';
import type { ItemKey } from '../keys.ts';
import { replaceItem } from '../replace-by-key.ts';

export const rescanJobKey = (scannerVersion: string): ItemKey => ({ PK: 'JOB#capability-rescan', SK: `V#${scannerVersion}` });

/** Not started, at the key a page stopped after, or past the last story. */
export type RescanPosition = { at: 'start' } | { at: 'key'; key: ItemKey } | { at: 'end' };

const END = 'end';

function encode(position: RescanPosition): string | undefined {
  if (position.at === 'start') return undefined;
  return position.at === 'end' ? END : JSON.stringify([position.key.PK, position.key.SK]);
}

export function toRescanPosition(item: StoredItem | undefined): RescanPosition {
  const stored = item?.position;
  if (typeof stored !== 'string') return { at: 'start' };
  if (stored === END) return { at: 'end' };
  const [PK, SK] = JSON.parse(stored) as [string, string];
  return { at: 'key', key: { PK, SK } };
}

/** Moves the position from `read` to `next`, only while it still is `read`. */
export function moveRescanPosition(scannerVersion: string, read: RescanPosition, next: RescanPosition): PutAction {
  const previous = encode(read);
  return replaceItem(
    { ...rescanJobKey(scannerVersion), scanner_version: scannerVersion, position: encode(next) ?? END },
    previous === undefined
      ? itemAbsent
      : { expression: '#position = :read', names: { '#position': 'position' }, values: { ':read': previous } },
  );
}
