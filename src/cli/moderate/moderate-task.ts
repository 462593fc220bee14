// How `npm run moderate -- <command>` arguments become a task (moderate.ts): a usage error is
// thrown before the store is opened. An action mints one op id per invocation; `--op-id`
// repeats an earlier one, so a run cut off before its answer can be run again safely.
import { randomUUID } from 'node:crypto';
import { userInfo } from 'node:os';
import type { CommandArgs } from '../operator-command.ts';

export type ModerateTask =
  | { kind: 'queue'; limit: number }
  | { kind: 'show'; slug: string }
  | { kind: 'quarantine' | 'restore'; slug: string; reason: string; actor: string; opId: string }
  | { kind: 'ban' | 'unban'; target: string; reason: string; actor: string; opId: string }
  | { kind: 'approve'; slug: string; reason: string; actor: string; opId: string }
  | { kind: 'announcing'; on: boolean; reason: string; actor: string; opId: string };

const DEFAULT_QUEUE_LIMIT = 50;

export function parseModerateTask({ values, positionals }: CommandArgs): ModerateTask {
  const [command, slug, ...rest] = positionals;
  if (rest.length > 0) throw new Error(`unexpected arguments: ${rest.join(' ')}`);
  if (command === 'queue') {
    if (slug !== undefined) throw new Error('queue takes no slug');
    return { kind: 'queue', limit: parseLimit(values.limit) };
  }
  if (command === 'announcing') {
    if (slug !== 'on' && slug !== 'off') throw new Error('announcing takes on or off');
    return { kind: 'announcing', on: slug === 'on', ...action(command, values) };
  }
  if (slug === undefined)
    throw new Error(
      'expected: queue, show <slug>, quarantine <slug> --reason <text>, restore <slug> --reason <text>, ban <handle|did> --reason <text>, unban <handle|did> --reason <text>, approve <slug> --reason <text> or announcing on|off --reason <text>',
    );
  if (command === 'show') return { kind: 'show', slug };
  if (command === 'quarantine' || command === 'restore' || command === 'approve')
    return { kind: command, slug, ...action(command, values) };
  // The positional is an account (a handle or a DID) for these two.
  if (command === 'ban' || command === 'unban') return { kind: command, target: slug, ...action(command, values) };
  throw new Error(`unknown command "${command ?? ''}": expected queue, show, quarantine, restore, ban, unban, approve or announcing`);
}

function action(command: string, values: CommandArgs['values']): { reason: string; actor: string; opId: string } {
  if (typeof values.reason !== 'string' || values.reason.trim() === '') throw new Error(`${command} needs --reason <text>`);
  return {
    reason: values.reason,
    actor: typeof values.actor === 'string' ? values.actor : `operator:${userInfo().username}`,
    opId: typeof values['op-id'] === 'string' ? values['op-id'] : randomUUID(),
  };
}

function parseLimit(value: string | boolean | undefined): number {
  if (value === undefined) return DEFAULT_QUEUE_LIMIT;
  const limit = Number(value);
  if (!Number.isInteger(limit) || limit < 1 || limit > 200) throw new Error('--limit is a whole number from 1 to 200');
  return limit;
}
