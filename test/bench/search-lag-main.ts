// The write-to-searchable lag alone (search-lag.ts), as `npm run bench` runs it in a child of its
// own beside the engines' child: each has its own time bound, so one overrunning never costs the
// other its figures. Prints the report lines (markdown). LOREBOOK_BENCH_QUICK=1: the small plan;
// LOREBOOK_TEST_DDB_ENDPOINT: a running DynamoDB Local to use instead of starting one.
import { measureSearchLag } from './search-lag.ts';

const log = (line: string): void => void process.stderr.write(`${new Date().toISOString()} ${line}\n`);
const lines = await measureSearchLag(process.env.LOREBOOK_TEST_DDB_ENDPOINT || undefined, process.env.LOREBOOK_BENCH_QUICK === '1', log);
process.stdout.write(`${lines.join('\n')}\n`);
