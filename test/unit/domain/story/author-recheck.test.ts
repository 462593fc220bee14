import { describe, expect, it } from 'vitest';
import { authorRecheck, recheckText } from '../../../../src/domain/story/author-recheck.ts';

const day = (iso: string): string => iso.slice(0, 10);
const published = { revision: 1, kind: 'publish', at: '2026-11-01T10:00:00.000Z' };
const report = { result: 'worked' as const, at: '2026-11-02T10:00:00.000Z' };

describe("the author's re-run", () => {
  it('is absent when the author never reported one', () => {
    expect(authorRecheck(undefined, [published])).toBeUndefined();
  });

  it('is current after the report, in words per result: still works, partly works, failed', () => {
    const recheck = authorRecheck(report, [published]);
    expect(recheck).toEqual({ result: 'worked', at: report.at, state: 'current' });
    expect(recheckText(recheck!, day)).toBe('author re-checked 2026-11-02 — still works');
    expect(recheckText(authorRecheck({ ...report, result: 'partial' }, [published])!, day)).toBe(
      'author re-checked 2026-11-02 — partly works',
    );
    expect(recheckText(authorRecheck({ ...report, result: 'failed' }, [published])!, day)).toBe('author re-checked 2026-11-02 — failed');
  });

  it('a correction or an addition after the report makes it outdated, naming the newest one', () => {
    const addition = { revision: 2, kind: 'addition', at: '2026-11-03T10:00:00.000Z' };
    const correction = { revision: 3, kind: 'correction', at: '2026-11-05T10:00:00.000Z' };
    const recheck = authorRecheck(report, [correction, published, addition]);
    expect(recheck).toEqual({ ...report, state: 'outdated', changed_by: correction });
    expect(recheckText(recheck!, day)).toBe('not re-checked by the author since the correction of 2026-11-05');
    expect(authorRecheck(report, [published, addition])?.changed_by).toEqual(addition);
  });

  it('a rephrase, a republish, or a change from before the report keep it current', () => {
    const rephrase = { revision: 2, kind: 'rephrase', at: '2026-11-03T10:00:00.000Z' };
    const republish = { revision: 3, kind: 'republish', at: '2026-11-04T10:00:00.000Z' };
    const earlier = { revision: 4, kind: 'correction', at: '2026-11-02T09:00:00.000Z' };
    const sameInstant = { revision: 5, kind: 'addition', at: report.at };
    expect(authorRecheck(report, [published, rephrase, republish, earlier, sameInstant])?.state).toBe('current');
  });
});
