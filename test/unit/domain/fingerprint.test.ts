import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../../src/domain/canonical-json.ts';
import { fingerprint } from '../../../src/domain/fingerprint.ts';

describe('canonicalJson', () => {
  it('sorts keys at every depth', () => {
    expect(canonicalJson({ b: 1, a: { d: [{ y: 1, x: 2 }], c: 3 } })).toBe('{"a":{"c":3,"d":[{"x":2,"y":1}]},"b":1}');
  });

  it('drops undefined members but keeps null', () => {
    expect(canonicalJson({ a: undefined, b: null })).toBe('{"b":null}');
  });

  it('writes undefined array items as null, like JSON', () => {
    expect(canonicalJson([1, undefined, 'x'])).toBe('[1,null,"x"]');
  });

  it('honours toJSON (dates become ISO strings)', () => {
    expect(canonicalJson({ at: new Date(0) })).toBe('{"at":"1970-01-01T00:00:00.000Z"}');
  });

  it('keeps array order, which is meaningful', () => {
    expect(canonicalJson(['b', 'a'])).not.toBe(canonicalJson(['a', 'b']));
  });
});

describe('fingerprint', () => {
  it('is v1: plus the sha256 hex of the canonical JSON of {tool, input}', () => {
    const expected = createHash('sha256').update('{"input":{"a":1},"tool":"publish_story"}').digest('hex');
    expect(fingerprint('publish_story', { a: 1 })).toBe(`v1:${expected}`);
  });

  it('is the same whatever order the input keys were built in', () => {
    expect(fingerprint('report_check', { slug: 's', result: 'has_problem' })).toBe(
      fingerprint('report_check', { result: 'has_problem', slug: 's' }),
    );
  });

  it('ignores members that are undefined, so an omitted optional equals an absent one', () => {
    expect(fingerprint('edit_story', { slug: 's', note: undefined })).toBe(fingerprint('edit_story', { slug: 's' }));
  });

  it('differs by tool for the same input', () => {
    expect(fingerprint('report_check', { slug: 's' })).not.toBe(fingerprint('report_reproduction', { slug: 's' }));
  });

  it('differs when any input value differs', () => {
    expect(fingerprint('report_check', { slug: 's', result: 'has_problem' })).not.toBe(
      fingerprint('report_check', { slug: 's', result: 'no_problem' }),
    );
  });
});
