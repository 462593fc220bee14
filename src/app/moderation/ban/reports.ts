// A banned account's reports on one story leave its counts, and come back on unban, exactly once
// each (design.md#bans). Unlike deletion (account/withdraw-reports.ts) nothing is deleted: a counted
// reproduction, check or flag becomes `counted: false` with `uncounted_by_ban: true`, in the same
// transaction as META's count moving back; an unban turns only the marked ones back, conditioned
// on the marker. Each report's own condition and META's membership condition make a second
// delivery of a step fail instead of moving a count twice; a report left `counted: false` is
// what a later deletion of the account finds, so it moves no count either.
import type { StoredItem, WriteAction } from '../../../store/actions.ts';
import type { SweepKind } from '../../../store/identity/ban-items.ts';
import { checkKey, reproductionKey, storyKey } from '../../../store/keys.ts';
import { pick, readItems } from '../../../store/read-items.ts';
import { toCheckReport } from '../../../store/story/check-items.ts';
import { type FlagReason, flagKey } from '../../../store/story/flag-items.ts';
import { stillReported } from '../../../store/story/report-items.ts';
import { reproductionOf } from '../../../store/story/reproduction-items.ts';
import { toStoryMeta } from '../../../store/story/story-items.ts';
import { isTombstone } from '../../../store/story/story-tombstone.ts';
import { updateItem } from '../../../store/update-item.ts';
import type { AppContext } from '../../context/app-context.ts';
import { type FlagRecount, recountFlag } from '../recount-flag.ts';

const MARKER = 'uncounted_by_ban';

export async function banMovesOn(ctx: AppContext, account: string, slug: string, kind: SweepKind, at: string): Promise<WriteAction[]> {
  const read = await readItems(ctx.store, [
    storyKey(slug),
    reproductionKey(slug, account),
    checkKey(slug, account),
    flagKey(slug, account),
  ]);
  const metaItem = pick(read, storyKey(slug));
  // A story gone or tombstoned took its reports and counts with it.
  if (metaItem === undefined || isTombstone(metaItem)) return [];
  const meta = toStoryMeta(metaItem);
  const change = new MetaMoves(account);
  const actions: WriteAction[] = [];

  const reproduction = reproductionOf(read, slug, account);
  const check = pick(read, checkKey(slug, account));
  const flag = pick(read, flagKey(slug, account));
  if (kind === 'ban') {
    if (reproduction?.counted === true) {
      actions.push(uncount(reproductionKey(slug, account), stillReported(reproduction)));
      change.reproducer(reproduction.result, -1);
    }
    const checkReport = check === undefined ? undefined : toCheckReport(check);
    if (checkReport?.counted === true) {
      actions.push(uncount(checkKey(slug, account), stillReported(checkReport)));
      change.shift(checkReport.result, -1);
    }
    // A counted flag already out of `flaggers` (none is today) has no count to take back.
    if (flag?.counted === true && meta.flaggers?.[account] !== undefined) {
      actions.push(uncount(flagKey(slug, account), flagCounted(flag)));
      change.flaggerLeaves();
    }
  } else {
    if (reproduction !== undefined && marked(read, reproductionKey(slug, account))) {
      actions.push(recount(reproductionKey(slug, account)));
      change.reproducer(reproduction.result, 1);
    }
    if (check !== undefined && check[MARKER] === true) {
      actions.push(recount(checkKey(slug, account)));
      change.shift(String(check.result), 1);
    }
    if (flag !== undefined && flag[MARKER] === true) {
      actions.push(recount(flagKey(slug, account)));
      const back = recountFlag(ctx, meta, account, flag.reason as FlagReason, at);
      change.include(back);
      actions.push(...back.puts);
    }
  }
  const metaUpdate = change.update(slug);
  return metaUpdate === undefined ? actions : [...actions, metaUpdate];
}

const marked = (read: Parameters<typeof pick>[0], key: { PK: string; SK: string }): boolean => pick(read, key)?.[MARKER] === true;

function flagCounted(flag: StoredItem) {
  return {
    expression: '#at = :at AND #counted = :yes',
    names: { '#at': 'at', '#counted': 'counted' },
    values: { ':at': flag.at, ':yes': true },
  };
}

function uncount(
  key: { PK: string; SK: string },
  asRead: { expression: string; names?: Record<string, string>; values?: Record<string, unknown> },
): WriteAction {
  return updateItem(key, { set: { counted: false, [MARKER]: true } }, asRead);
}

function recount(key: { PK: string; SK: string }): WriteAction {
  return updateItem(
    key,
    { set: { counted: true }, remove: [MARKER] },
    { expression: '#marker = :yes', names: { '#marker': MARKER }, values: { ':yes': true } },
  );
}

/** META's moves for one account's reports, gathered into one update (a transaction names an item once). */
class MetaMoves {
  readonly #set: string[] = [];
  readonly #add: string[] = [];
  readonly #delete: string[] = [];
  readonly #remove: string[] = [];
  readonly #conditions: string[] = [];
  readonly #names: Record<string, string> = {};
  readonly #values: Record<string, unknown> = {};
  #fields: { set: Record<string, unknown>; remove: string[] } = { set: {}, remove: [] };

  readonly account: string;

  constructor(account: string) {
    this.account = account;
  }

  /** Primitive 2: the member leaves or joins `reproducers` with its count, only from the state read. */
  reproducer(bucket: string, delta: 1 | -1): void {
    this.shift(bucket, delta);
    Object.assign(this.#names, { '#reproducers': 'reproducers' });
    Object.assign(this.#values, { ':member': this.account, ':memberSet': new Set([this.account]) });
    (delta < 0 ? this.#delete : this.#add).push('#reproducers :memberSet');
    this.#conditions.push(delta < 0 ? 'contains(#reproducers, :member)' : 'NOT contains(#reproducers, :member)');
  }

  /** The flagger leaves `flaggers` with `flag_count`, only from the state read. */
  flaggerLeaves(): void {
    Object.assign(this.#names, { '#flaggers': 'flaggers', '#flagger': this.account, '#flagCount': 'flag_count' });
    this.#values[':oneFlag'] = -1;
    this.#set.push('#flagCount = if_not_exists(#flagCount, :noFlags) + :oneFlag');
    this.#values[':noFlags'] = 0;
    this.#remove.push('#flaggers.#flagger');
    this.#conditions.push('attribute_exists(#flaggers.#flagger)');
  }

  /** The flagger back in the count, and the hold when it brings the story to the threshold (recount-flag.ts). */
  include(back: FlagRecount): void {
    this.#set.push(...back.setClauses);
    Object.assign(this.#names, back.names, back.condition.names);
    Object.assign(this.#values, back.values, back.condition.values);
    this.#conditions.push(back.condition.expression);
    this.#fields = { set: back.set, remove: back.remove };
  }

  shift(bucket: string, delta: number): void {
    const index = this.#set.length;
    Object.assign(this.#names, { '#counts': 'counts', [`#b${index}`]: bucket });
    this.#values[`:d${index}`] = delta;
    this.#set.push(`#counts.#b${index} = #counts.#b${index} + :d${index}`);
  }

  update(slug: string): WriteAction | undefined {
    if (this.#set.length === 0) return undefined;
    return updateItem(
      storyKey(slug),
      {
        set: this.#fields.set,
        remove: this.#fields.remove,
        setClauses: this.#set,
        addClauses: this.#add,
        deleteClauses: this.#delete,
        removeClauses: this.#remove,
        names: this.#names,
        values: this.#values,
      },
      this.#conditions.length === 0 ? undefined : { expression: this.#conditions.join(' AND ') },
    );
  }
}
