// A task on the offload workers in the share of the call's caller (docs/design.md#fair-cpu): the
// context's slots and caller when it has them, else the process's own workers.
import { sharedCpuSlots } from '../../offload/cpu-slots.ts';
import type { OffloadTask } from '../../offload/offload.ts';
import type { AppContext } from './app-context.ts';

export type CpuScope = Pick<AppContext, 'cpu' | 'cpuCaller'>;

export function runOffloaded<I, O>(scope: CpuScope | undefined, task: OffloadTask<I, O>, input: I): Promise<O> {
  return (scope?.cpu ?? sharedCpuSlots()).offload.run(task, input, scope?.cpuCaller);
}
