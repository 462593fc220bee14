import { describe, expect, it } from 'vitest';
import { createOutputTail } from '../../../../integrations/dynamodb-local/output-tail.ts';

describe('createOutputTail', () => {
  it('keeps only the last lines, joining lines split across chunks', () => {
    const tail = createOutputTail(2);
    tail.push('first\nsec');
    tail.push('ond\r\nthird\n');
    expect(tail.lines()).toEqual(['second', 'third']);
  });

  it('includes an unfinished last line and skips blank ones', () => {
    const tail = createOutputTail(3);
    tail.push('\n\nCould not start server on port 8000: Address already in use');
    expect(tail.lines()).toEqual(['Could not start server on port 8000: Address already in use']);
  });
});
