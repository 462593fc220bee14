// vitest config of the targeted mutation run over the sign-in and OAuth write rules
// (stryker.auth.config.json, `npm run test:mutation:auth`). Only the tests that exercise those
// files: Stryker's dry run executes every included test once with coverage, and the whole suite
// (pages, fuzz, crash points of unrelated writes) would cost minutes per run for no kill.
import { defineConfig } from 'vitest/config';

const storage = {
  globalSetup: ['test/helpers/global-setup.ts'],
  testTimeout: 30_000,
  hookTimeout: 60_000,
};

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: [
            'test/unit/auth/**/*.test.ts',
            'test/unit/store/identity/device-items.test.ts',
            'test/unit/store/oauth-items.test.ts',
            'test/unit/store/identity/oauth-state-items.test.ts',
          ],
        },
      },
      {
        test: {
          name: 'integration',
          include: [
            'test/integration/oauth-server/**/*.test.ts',
            'test/integration/sign-in/**/*.test.ts',
            'test/integration/app/rate-limit.test.ts',
            'test/integration/bluesky/publish-feed-cli.test.ts',
            'test/crash/bluesky-sign-in.test.ts',
          ],
          ...storage,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/oauth-server/**/*.test.ts', 'test/e2e/sign-in/**/*.test.ts'],
          ...storage,
        },
      },
    ],
  },
});
