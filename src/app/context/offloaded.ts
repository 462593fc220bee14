// A task on the offload workers in the share of the call's caller (docs/design.md#fair-cpu): the
// context's slots and caller when it has them, else the process's own workers. And the caller's
// minute of CPU, asked before work it would be charged for is begun.
import type { LorebookError } from '../../domain/errors.ts';
import { sharedCpuSlots } from '../../offload/cpu-slots.ts';
import type { OffloadTask } from '../../offload/offload.ts';
import type { AppContext } from './app-context.ts';

export type CpuScope = Pick<AppContext, 'cpu' | 'cpuCaller'>;

export function runOffloaded<I, O>(scope: CpuScope | undefined, task: OffloadTask<I, O>, input: I): Promise<O> {
  return (scope?.cpu ?? sharedCpuSlots()).offload.run(task, input, scope?.cpuCaller);
}

/** `rate_limited` (`cpu_time`) when the caller has spent its minute of CPU; undefined while it has room. */
export function cpuMinuteRefusal(scope: Pick<AppContext, 'cpu'>, cpuCaller: string): LorebookError | undefined {
  return (scope.cpu ?? sharedCpuSlots()).minutes?.refusal(cpuCaller);
}
