// An upload's bytes as received (src/app/images/received-image.ts): hashed as they came, joined
// only when asked, once; the same hash whether they came in chunks or whole.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { imageReceiver, receivedWhole } from '../../../../src/app/images/received-image.ts';

const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

describe('an image as received', () => {
  it('in chunks: its length and hash are those of the chunks together, its bytes are them joined in order, joined once however often asked', () => {
    const receiver = imageReceiver();
    for (const chunk of ['first ', 'second ', 'third']) receiver.take(Buffer.from(chunk));
    const image = receiver.received();
    expect(image).toMatchObject({ byteLength: 18, sha256: sha256(Buffer.from('first second third')) });
    const joined = image.bytes();
    expect(Buffer.from(joined).toString()).toBe('first second third');
    expect(image.bytes()).toBe(joined);
  });

  it('whole: the same hash as in chunks, and its bytes are the buffer itself', () => {
    const bytes = Buffer.from('an image');
    const image = receivedWhole(bytes);
    expect(image).toMatchObject({ byteLength: 8, sha256: sha256(bytes) });
    expect(image.bytes()).toBe(bytes);
  });
});
