// The fairness bench's attackers, in a process of their own (forked by fairness-attacker-process.ts):
// a stranger's client work (writing forty 7 MB bodies, reading hundreds of refusals a second) then
// never delays the victim's client, which times its calls on the bench's own event loop.
import { type Attack, attackLoops } from './fairness-attacks.ts';

export type AttackerCommand = { type: 'start'; kinds: Attack[]; base: string; uploader: string } | { type: 'stop' };
export interface AttackerStopped {
  type: 'stopped';
  /** Attack calls answered, by status. */
  statuses: Record<string, number>;
  /** CPU the attackers' client spent during the attack (user + system), in ms. */
  cpuMs: number;
}

let running: { loops: Promise<void>[]; stop: { stopped: boolean }; statuses: Record<string, number>; cpu: NodeJS.CpuUsage } | undefined;

process.on('message', async (command: AttackerCommand) => {
  if (command.type === 'start') {
    const stop = { stopped: false };
    const statuses: Record<string, number> = {};
    const cpu = process.cpuUsage();
    const loops = command.kinds.flatMap((kind) => attackLoops(kind, { base: command.base, uploader: command.uploader }, statuses, stop));
    running = { loops, stop, statuses, cpu };
    process.send?.({ type: 'started' });
    return;
  }
  const current = running;
  running = undefined;
  if (current === undefined) return void process.send?.({ type: 'stopped', statuses: {}, cpuMs: 0 } satisfies AttackerStopped);
  current.stop.stopped = true;
  await Promise.all(current.loops);
  const used = process.cpuUsage(current.cpu);
  process.send?.({ type: 'stopped', statuses: current.statuses, cpuMs: (used.user + used.system) / 1000 } satisfies AttackerStopped);
});
// The bench that forked it is gone: so are its attacks.
process.on('disconnect', () => process.exit(0));
process.send?.({ type: 'ready' });
