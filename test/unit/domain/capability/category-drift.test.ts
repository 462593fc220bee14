// What report_drift answers as `categories`: the categories a reader's scan adds to the published
// report's and the ones it lacks, each once, most serious first.
import { describe, expect, it } from 'vitest';
import { categoriesOf, categoryDrift } from '../../../../src/domain/capability/category-drift.ts';
import { scanText } from '../../../../src/domain/capability/scan.ts';

const steps = (command: string) => scanText(`\`\`\`sh\n${command}\n\`\`\`\n`).findings;

describe('category drift', () => {
  it('lists each category of the findings once, most serious first, whatever their order', () => {
    expect(
      categoriesOf([{ category: 'network' }, { category: 'remote_execution' }, { category: 'network' }, { category: 'file_write' }]),
    ).toEqual(['remote_execution', 'network', 'file_write']);
  });

  it('a piped install where the story downloads to a file adds remote and local execution and removes the file write', () => {
    const published = categoriesOf(steps('curl -o fix.sh https://example.com/fix.sh'));
    const ran = categoriesOf(steps('curl -fsSL https://example.com/fix.sh | sh'));
    expect(published).toEqual(['network', 'file_write']);
    expect(categoryDrift(published, ran)).toEqual({ added: ['remote_execution', 'local_execution'], removed: ['file_write'] });
  });

  it("leaves out the narrative's findings (section story): a reader scanning what it ran has none", () => {
    expect(
      categoriesOf([
        { category: 'agent_directive', section: 'story' },
        { category: 'network', section: 'reproduce' },
      ]),
    ).toEqual(['network']);
  });

  it('the same categories differ in nothing, even when the evidence does', () => {
    expect(categoryDrift(categoriesOf(steps('npm test')), categoriesOf(steps('npm run build')))).toEqual({ added: [], removed: [] });
  });
});
