// Drives the attacker process (fairness-attacker.ts) from the bench: start a phase's attacks, stop
// them and collect what they were answered.
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { AttackerCommand, AttackerStopped } from './fairness-attacker.ts';
import type { Attack } from './fairness-attacks.ts';

export interface AttackerProcess {
  start(kinds: readonly Attack[], target: { base: string; uploader: string }): Promise<void>;
  stop(): Promise<AttackerStopped>;
  close(): void;
}

function nextMessage<T>(child: ChildProcess, type: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: { type: string }): void => {
      if (message.type !== type) return;
      child.off('message', onMessage);
      child.off('exit', onExit);
      resolve(message as T);
    };
    const onExit = (code: number | null): void => {
      child.off('message', onMessage);
      reject(new Error(`the attacker process exited (${code}) before '${type}'`));
    };
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

export async function startAttackerProcess(): Promise<AttackerProcess> {
  const child = fork(fileURLToPath(new URL('./fairness-attacker.ts', import.meta.url)), { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  await nextMessage(child, 'ready');
  const command = (message: AttackerCommand): void => void child.send(message);
  return {
    async start(kinds, target) {
      const started = nextMessage(child, 'started');
      command({ type: 'start', kinds: [...kinds], ...target });
      await started;
    },
    async stop() {
      const stopped = nextMessage<AttackerStopped>(child, 'stopped');
      command({ type: 'stop' });
      return stopped;
    },
    close() {
      child.disconnect();
    },
  };
}
