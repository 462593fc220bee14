// An operator approves a held announcement (docs/design.md#new-accounts, docs/moderation.md): the hold on a
// new account's story goes and its queue entry is due at once, in one transaction with the audit
// record (MODLOG and its copy on the story). Twice-safe by op_id like every write: the op record
// is `OP#<actor> / <op_id>`, so the same invocation again replays its answer; a second approval
// with another op_id finds nothing held and writes no second audit record.
import { z } from 'zod';
import { notFound } from '../../domain/errors.ts';
import { fingerprint } from '../../domain/fingerprint.ts';
import { normaliseText } from '../../domain/free-text.ts';
import { parseOpId } from '../../domain/op-id.ts';
import { parseSlug } from '../../domain/story/slug.ts';
import { storyKey } from '../../store/keys.ts';
import { checkItem } from '../../store/replace-by-key.ts';
import { isHeld, releaseHold } from '../../store/story/announce/hold.ts';
import { type StoryMeta, storyMetaOf } from '../../store/story/story-items.ts';
import { updateItem } from '../../store/update-item.ts';
import type { AppContext } from '../context/app-context.ts';
import { parseWriteInput } from '../input/parse-write-input.ts';
import { announceAfterCommit } from '../write/announce-after-commit.ts';
import { type Replayed, type WritePlan, writeOnce } from '../write/write-once.ts';
import { type AuditRecord, auditRecord } from './audit-record.ts';

export const APPROVE_HELD_TOOL = 'approve_held_announcement';

const approveHeldInputSchema = z.strictObject({
  slug: z.string(),
  reason: z.string().min(1).max(500),
  /** The operator, e.g. `operator:<os user name>`. */
  actor: z.string().min(1).max(200),
  op_id: z.string(),
});

export interface ApproveHeldOutcome {
  slug: string;
  /** True when this call released the hold; false when nothing was held (released already, or never held). */
  released: boolean;
}

export async function approveHeldAnnouncement(ctx: AppContext, raw: unknown): Promise<Replayed<ApproveHeldOutcome>> {
  const input = await parseWriteInput(approveHeldInputSchema, raw, APPROVE_HELD_TOOL, ctx);
  const slug = parseSlug(input.slug);
  const opId = parseOpId(input.op_id);
  const reason = normaliseText(input.reason) ?? input.reason;
  const outcome = await writeOnce<ApproveHeldOutcome>(ctx, {
    tool: APPROVE_HELD_TOOL,
    caller: { account: input.actor, handle: input.actor },
    opId,
    fingerprint: fingerprint(APPROVE_HELD_TOOL, { slug, reason }),
    reads: [storyKey(slug)],
    plan(read, { now }): WritePlan<ApproveHeldOutcome> {
      const meta = storyMetaOf(read, slug);
      if (meta === undefined) throw notFound(slug);
      if (!isHeld(meta.announce, now)) return notHeldAnswer(meta, now);
      const at = new Date(now).toISOString();
      const release = releaseHold(meta, at);
      const audit: AuditRecord = {
        action: 'approve',
        actor: input.actor,
        reason,
        target_kind: 'story',
        target: slug,
        changes: { announce: ['held', meta.announce.queued ? 'pending' : 'off'] },
        op_id: opId,
        at,
      };
      return {
        outcome: { slug, released: true },
        actions: [updateItem(storyKey(slug), release, release.condition), ...auditRecord(audit, storyKey(slug).PK)],
        guards: [],
      };
    },
  });
  return outcome.released ? announceAfterCommit(ctx, outcome) : outcome;
}

/** Nothing held: nothing written; with the op record, a check that it is still so. */
function notHeldAnswer(meta: StoryMeta, now: number): WritePlan<ApproveHeldOutcome> {
  return {
    outcome: { slug: meta.slug, released: false },
    actions: [],
    guards: [
      checkItem(storyKey(meta.slug), {
        expression: 'attribute_not_exists(#heldUntil) OR #heldUntil <= :now',
        names: { '#heldUntil': 'held_until' },
        values: { ':now': new Date(now).toISOString() },
      }),
    ],
  };
}
