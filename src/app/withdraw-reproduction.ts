// withdraw_reproduction — a conditional delete of the caller's REPRO#account that takes its count
// back in the same transaction (docs/design.md#write-rules). The delete names the result it read, so a report
// changed by another device in the meantime is re-read and the right count is taken back.
import { fingerprint } from '../domain/fingerprint.ts';
import { parseOpId } from '../domain/op-id.ts';
import { parseSlug } from '../domain/story/slug.ts';
import type { WriteAction } from '../store/actions.ts';
import { reproductionKey, storyKey } from '../store/keys.ts';
import { uncountMember } from '../store/list-conditioned-counter.ts';
import { checkItem, deleteItemIf } from '../store/replace-by-key.ts';
import { nothingReported, stillReported } from '../store/story/report-items.ts';
import { establishedReproducers, reproducerCounter, reproductionCounts, reproductionOf } from '../store/story/reproduction-items.ts';
import { storyMetaOf } from '../store/story/story-items.ts';
import { visibleStory } from './caller/story-access.ts';
import type { AppContext, Caller } from './context/app-context.ts';
import { parseWriteInput } from './input/parse-write-input.ts';
import { WITHDRAW_REPRODUCTION_TOOL, type WithdrawOutcome, withdrawReproductionInputSchema } from './withdraw-reproduction.contract.ts';
import { type Replayed, type WritePlan, writeOnce } from './write/write-once.ts';

export async function withdrawReproduction(ctx: AppContext, caller: Caller, raw: unknown): Promise<Replayed<WithdrawOutcome>> {
  const input = await parseWriteInput(withdrawReproductionInputSchema, raw, WITHDRAW_REPRODUCTION_TOOL, ctx);
  const opId = input.op_id === undefined ? undefined : parseOpId(input.op_id);
  const slug = parseSlug(input.slug);
  const key = reproductionKey(slug, caller.account);

  return writeOnce(ctx, {
    tool: WITHDRAW_REPRODUCTION_TOOL,
    caller,
    opId,
    fingerprint: fingerprint(WITHDRAW_REPRODUCTION_TOOL, { slug }),
    reads: [storyKey(slug), key],
    plan(read): WritePlan<WithdrawOutcome> {
      const meta = visibleStory(storyMetaOf(read, slug), slug, caller);
      const existing = reproductionOf(read, slug, caller.account);
      // @NOTE A second withdraw answers exactly what the first one did (docs/design.md#write-rules), with no
      // "already withdrawn" flag of its own: a retry after a lost response must not be able to
      // tell it was a retry, and the answer stays derived from state alone.
      if (existing === undefined) {
        return {
          outcome: { slug, withdrawn: true, counts: reproductionCounts(meta.counts), reproducers_count: establishedReproducers(meta) },
          actions: [],
          guards: [checkItem(key, nothingReported)],
        };
      }
      const actions: WriteAction[] = [deleteItemIf(key, stillReported(existing))];
      let counts = meta.counts;
      let reproducers = establishedReproducers(meta);
      if (existing.counted) {
        actions.push(uncountMember(reproducerCounter(slug, existing), existing.result));
        // A new account's report leaves `new_counts`, which the answer's counts do not show.
        if (existing.new_account !== true) {
          counts = { ...counts, [existing.result]: counts[existing.result] - 1 };
          reproducers -= 1;
        }
      }
      return {
        outcome: { slug, withdrawn: true, counts: reproductionCounts(counts), reproducers_count: reproducers },
        actions,
        guards: [],
      };
    },
  });
}
