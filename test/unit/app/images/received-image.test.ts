// An upload's bytes as received (src/app/images/received-image.ts): hashed as they came, joined
// only when asked, once.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { receivedInChunks, receivedWhole } from '../../../../src/app/images/received-image.ts';

const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

describe('an image as received', () => {
  it('in chunks: its length is the chunks together, its bytes are them joined in order, and they are joined once however often asked', () => {
    const chunks = [Buffer.from('first '), Buffer.from('second '), Buffer.from('third')];
    const image = receivedInChunks(chunks, 'the hash the reader computed');
    expect(image.byteLength).toBe(18);
    expect(image.sha256).toBe('the hash the reader computed');
    const joined = image.bytes();
    expect(Buffer.from(joined).toString()).toBe('first second third');
    expect(image.bytes()).toBe(joined);
  });

  it('whole: hashed once, and its bytes are the buffer itself', () => {
    const bytes = Buffer.from('an image');
    const image = receivedWhole(bytes);
    expect(image).toMatchObject({ byteLength: 8, sha256: sha256(bytes) });
    expect(image.bytes()).toBe(bytes);
  });
});
