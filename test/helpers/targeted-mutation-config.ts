// The vitest config of a targeted mutation run (vitest.mutation-*.config.ts): only the unit tests
// and the DynamoDB Local suites that exercise the mutated files. Stryker's dry run executes every
// included test once with coverage, and the whole suite would cost minutes per mutant for no kill.
import { defineConfig, type ViteUserConfig } from 'vitest/config';

const STORAGE = {
  globalSetup: ['test/helpers/global-setup.ts'],
  testTimeout: 60_000,
  hookTimeout: 120_000,
};

export function targetedMutationConfig(tests: { unit: string[]; integration: string[] }): ViteUserConfig {
  return defineConfig({
    test: {
      projects: [
        { test: { name: 'unit', include: tests.unit } },
        { test: { name: 'integration', include: tests.integration, ...STORAGE } },
      ],
    },
  });
}
