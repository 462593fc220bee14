// vitest config of the targeted mutation run over the capability scanner's agent rules
// (stryker.capability.config.json): only the unit tests that read those files, so each of the
// rules' module-level patterns (static mutants) costs one short run.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: [
            'test/unit/domain/capability/scan/agent-rules.test.ts',
            'test/unit/domain/capability/scan/report.test.ts',
            'test/unit/domain/capability/category-drift.test.ts',
          ],
        },
      },
    ],
  },
});
