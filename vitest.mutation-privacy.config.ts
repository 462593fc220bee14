// vitest config of the targeted mutation run over the privacy writes (stryker.privacy.config.json,
// `npm run test:mutation:privacy`): redaction and its finishing steps, account deletion's steps and
// items, the account index backfill. Only the tests that exercise those files, on DynamoDB Local:
// Stryker's dry run executes every included test once with coverage, and the whole suite would
// cost minutes per mutant for no kill. Left out for time (measured as a plain run on the shared
// 2 cores): the 3000-item deletion (account-deletion-size, 101 s) and the crash points of
// deletion and redaction (test/crash, 67 s, 157 tests), and the backfill through the CLI's child
// process (account-index-backfill, 12 s: its code runs outside the instrumented process;
// index-backfill-in-process covers the same in process), each of which would run again for every
// mutant it covers.
import { targetedMutationConfig } from './test/helpers/targeted-mutation-config.ts';

export default targetedMutationConfig({
  unit: ['test/unit/store/identity/account/index-backfill.test.ts', 'test/unit/app/caller/account-standing.test.ts'],
  integration: [
    'test/integration/account/account-deletion.test.ts',
    'test/integration/account/deletion-steps.test.ts',
    'test/integration/account/deletion-step-guards.test.ts',
    'test/integration/account/index-backfill-in-process.test.ts',
    'test/integration/account/old-credentials.test.ts',
    'test/integration/redaction/redact-story.test.ts',
    'test/integration/redaction/finish-redaction.test.ts',
  ],
});
