// `npm run moderate -- <command>`: the operators' moderation commands (docs/moderation.md,
// design.md#operators-audit) — the review queue, one story's record, and the two story actions, each of which writes
// one audit record in its own transaction and is twice-safe by its op id.
import { approveHeldAnnouncement } from '../app/moderation/approve-held.ts';
import { banAccount, unbanAccount } from '../app/moderation/ban/account.ts';
import { moderationRecord } from '../app/moderation/moderation-record.ts';
import { operatorQueue } from '../app/moderation/operator-queue.ts';
import { quarantineStory } from '../app/moderation/quarantine-story.ts';
import { restoreStory } from '../app/moderation/restore-story.ts';
import { setAnnouncing } from '../app/moderation/set-announcing.ts';
import { awsHelp } from './command-context.ts';
import { actionText, announcingText, approveText, banText, queueText, recordText } from './moderate/moderate-output.ts';
import { type ModerateTask, parseModerateTask } from './moderate/moderate-task.ts';
import { type OperatorCommand, printLine, runOperatorCommand } from './operator-command.ts';

const HELP = `usage: npm run moderate -- queue [--limit <n>] [--aws] [--json]
       npm run moderate -- show <slug> [--aws] [--json]
       npm run moderate -- quarantine <slug> --reason <text> [--op-id <id>] [--actor <name>] [--aws] [--json]
       npm run moderate -- restore <slug> --reason <text> [--op-id <id>] [--actor <name>] [--aws] [--json]
       npm run moderate -- ban <handle|did> --reason <text> [--op-id <id>] [--actor <name>] [--aws] [--json]
       npm run moderate -- unban <handle|did> --reason <text> [--op-id <id>] [--actor <name>] [--aws] [--json]
       npm run moderate -- approve <slug> --reason <text> [--op-id <id>] [--actor <name>] [--aws] [--json]
       npm run moderate -- announcing on|off --reason <text> [--op-id <id>] [--actor <name>] [--aws] [--json]

queue: what waits for a person, newest first, one line each with its kind: held (a story held
for review, by readers' flags or by an operator), appeal (a held story its author appealed),
spam_wave (a story other accounts' near-duplicates of it were refused against: how many, from
whom, with --json every refused copy's account, slug, title and time; no text is kept) and
held_announcement (a new account's story not yet announced on Bluesky: approve releases it).
At most --limit (50; up to 200).

show: one story's moderation: its state, its author's appeal, its reader flags with their notes,
and the audit records of every operator action on it.

quarantine: holds the story for review, as enough flags would: hidden, out of the feeds and
search, its Bluesky post deleted, its author told (notification of kind "moderation") with your
reason. A story already held: nothing changes.

restore: lifts a hold: the story is listed again and announced again on Bluesky at the same
record key; its author is told with your reason; flags never hold it again. A story already
restored: nothing changes.

ban: suspends an account: every call with its tokens, OAuth grants or web session answers
account_suspended (403) with your reason, signing in again is refused, every credential it had is
revoked for good, its reproductions, checks and flags leave every count once, and its listed
stories are held for review. It answers once all of that is done; a run cut
off is finished by running it again. A banned account: nothing changes.

unban: puts back exactly what the ban took (the counts, the held stories) and lets the person
sign in again and mint new credentials; the revoked ones stay revoked.

approve: releases a new account's story held from Bluesky (announce.state "held", reason
new_account): it is announced now instead of when the account becomes established. A story not
held: nothing changes.

announcing: the site-wide switch (the runtime setting LOREBOOK_ANNOUNCING, design.md#settings): off, no
instance posts to or deletes from Bluesky, and the announce queue keeps the work; on, the next
sweep resumes it. Every instance honours it within LOREBOOK_SETTINGS_CACHE_SECONDS (60), with no
redeploy.

Each action writes one audit record (who, when, why, what changed) with the change. It prints the
op id it ran as; a run that was cut off before its answer is repeated safely with --op-id <that id>.

options:
  --reason <text>  why (at most 500 characters): kept in the audit record and shown to the author
  --op-id <id>     repeat an earlier action (default: a new id per run)
  --actor <name>   who acts, for the audit record (default: operator:<your user name>)
  --limit <n>      queue: how many entries (default 50, at most 200)
  --aws            the deployed table in AWS instead of a local store (below)
  --json           print the answer as JSON
  -h, --help       this text

Without --aws the store is found as for npm start (a running npm start's store is used, or
LOREBOOK_DDB_ENDPOINT, LOREBOOK_TABLE and LOREBOOK_DATA_DIR: docs/config.md).

${awsHelp('GetItem, Query (queue, show, ban, unban; for queue also on the index GSI3), BatchGetItem (queue), and for quarantine, restore, ban and unban BatchGetItem, PutItem, UpdateItem, DeleteItem, ConditionCheckItem and TransactWriteItems')}

exit status: 0 when done (or nothing needed doing), 1 when it could not be (unknown slug, a story
not held to restore, a store error), 2 on a usage error.
`;

const moderate: OperatorCommand<ModerateTask> = {
  name: 'moderate',
  help: HELP,
  options: {
    reason: { type: 'string' },
    'op-id': { type: 'string' },
    actor: { type: 'string' },
    limit: { type: 'string' },
  },
  parse: parseModerateTask,
  async run({ ctx, config, where, log }, task, { json }) {
    const print = (value: unknown, text: string): void => printLine(json ? JSON.stringify(value, null, 2) : text);
    if (task.kind === 'queue') {
      const entries = await operatorQueue(ctx, task.limit);
      print(entries, queueText(entries));
      return 0;
    }
    if (task.kind === 'show') {
      const record = await moderationRecord(ctx, task.slug);
      print(record, recordText(record));
      return 0;
    }
    if (task.kind === 'announcing') {
      log(
        `announcing ${task.on ? 'on' : 'off'} as ${task.actor}, op id ${task.opId} (repeat with --op-id ${task.opId}), table "${config.tableName}" ${where}`,
      );
      const outcome = await setAnnouncing(ctx, { on: task.on, reason: task.reason, actor: task.actor, op_id: task.opId });
      print(outcome, announcingText(outcome));
      return 0;
    }
    if (task.kind === 'approve') {
      log(
        `approve "${task.slug}" as ${task.actor}, op id ${task.opId} (repeat with --op-id ${task.opId}), table "${config.tableName}" ${where}`,
      );
      const outcome = await approveHeldAnnouncement(ctx, { slug: task.slug, reason: task.reason, actor: task.actor, op_id: task.opId });
      print(outcome, approveText(outcome));
      return 0;
    }
    if ('target' in task) {
      log(
        `${task.kind} "${task.target}" as ${task.actor}, op id ${task.opId} (repeat with --op-id ${task.opId}), table "${config.tableName}" ${where}`,
      );
      const act = task.kind === 'ban' ? banAccount : unbanAccount;
      const outcome = await act(ctx, { target: task.target, reason: task.reason, actor: task.actor, op_id: task.opId });
      print(outcome, banText(outcome));
      return 0;
    }
    log(
      `${task.kind} "${task.slug}" as ${task.actor}, op id ${task.opId} (repeat with --op-id ${task.opId}), table "${config.tableName}" ${where}`,
    );
    const act = task.kind === 'quarantine' ? quarantineStory : restoreStory;
    const outcome = await act(ctx, { slug: task.slug, reason: task.reason, actor: task.actor, op_id: task.opId });
    print(outcome, actionText(outcome));
    return 0;
  },
};

process.exitCode = await runOperatorCommand(moderate, process.argv.slice(2));
