// A job process for job-process.test.ts: what it does is named by its input, as a real job's
// input is its settings. `answer` answers the value doubled; `flags` the runtime flags it was
// started with; `silent` ends without an answer; `throw` fails; `hold` says it holds (a message of
// its own) and never ends by itself (the test closes the parent's end of the channel).
import { serveJobProcess } from '../../src/cli/job-process.ts';

type Input = { answer: number } | { flags: true } | { silent: true } | { throw: string } | { hold: true };

await serveJobProcess(async (input: Input) => {
  if ('answer' in input) return { doubled: input.answer * 2 };
  if ('flags' in input) return process.execArgv;
  if ('silent' in input) process.exit(0);
  if ('throw' in input) throw new Error(input.throw);
  process.send?.({ ok: true, value: 'holding' });
  return new Promise(() => setInterval(() => {}, 1000));
});
