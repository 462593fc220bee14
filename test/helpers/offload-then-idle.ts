// A process that runs one task on the offload worker and then has nothing left to do: it must
// exit by itself (an idle worker keeps no process alive). Run by test/unit/offload/offload.test.ts.
import { createOffload } from '../../src/offload/offload.ts';
import { WHICH_THREAD } from './offload-tasks.ts';

await createOffload().run(WHICH_THREAD, undefined);
process.stdout.write('ran\n');
