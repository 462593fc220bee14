// A job process for job-process.test.ts: what it does is named by its input, as a real job's
// input is its settings. `answer` posts the value doubled; `flags` posts the runtime flags it was
// started with; `silent` ends without an answer; `throw` fails; `hold` says it holds and never ends
// by itself (the test closes the parent's end of the channel).
import { answerJobProcess, jobProcessInput } from '../../src/cli/job-process.ts';

type Input = { answer: number } | { flags: true } | { silent: true } | { throw: string } | { hold: true };

const input = await jobProcessInput<Input>();
if ('answer' in input) await answerJobProcess({ doubled: input.answer * 2 });
else if ('flags' in input) await answerJobProcess(process.execArgv);
else if ('silent' in input) process.exit(0);
else if ('throw' in input) throw new Error(input.throw);
else {
  process.send?.('holding');
  setInterval(() => {}, 1000);
}
