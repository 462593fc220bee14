// edit_story — author only, keyed by slug, conditioned on the revision it is based on
// (design.md#write-rules). Kinds: rephrase | addition | correction; a correction needs a note and tells every
// reproducer, through an outbox event written in the same transaction; the answer's `notified`
// says how many. An identical edit (a repeat included) writes nothing and tells nobody, so it
// answers 0; an op_id replay answers the first answer verbatim. Revisions are kept, never
// overwritten.
import { validationFailed } from '../domain/errors.ts';
import { fingerprint } from '../domain/fingerprint.ts';
import { parseOpId } from '../domain/op-id.ts';
import { bodyKey, feedMonthsKey, storyKey } from '../store/keys.ts';
import { pick, readItem } from '../store/read-items.ts';
import { monthsOf } from '../store/story/feed-months.ts';
import { isListedPublicly, toStoryMeta } from '../store/story/story-items.ts';
import { ownStory } from './caller/story-access.ts';
import { capabilityRecordRead, withCapabilityRecord } from './capability/capability-record-write.ts';
import type { AppContext, Caller } from './context/app-context.ts';
import { EDIT_TOOL, type EditOutcome, editStoryInputSchema, type StoredEditOutcome } from './edit-story.contract.ts';
import { parseWriteInput } from './input/parse-write-input.ts';
import { answerCandidates, answerReads, revisionAnswerLinks } from './story-content/answer-links.ts';
import { planNewRevision, withCapabilityField, withStoryUrl } from './story-content/content-write.ts';
import { parseStoryOffloaded } from './story-content/parse-story-task.ts';
import { announceAfterCommit } from './write/announce-after-commit.ts';
import { notifyAfterCommit } from './write/notify-after-commit.ts';
import { type Replayed, writeOnce } from './write/write-once.ts';

export async function editStory(ctx: AppContext, caller: Caller, raw: unknown): Promise<Replayed<EditOutcome>> {
  const input = await parseWriteInput(editStoryInputSchema, raw, EDIT_TOOL, ctx);
  const opId = input.op_id === undefined ? undefined : parseOpId(input.op_id);
  const note = input.note?.trim() || undefined;
  if (input.kind === 'correction' && note === undefined) {
    throw validationFailed('A correction must say what was wrong.', {
      note: 'Add a note (one or two sentences) saying what the correction fixes; every reproducer is told.',
    });
  }
  const story = await parseStoryOffloaded({ markdown: input.markdown }, ctx);
  const { slug } = input;
  const candidates = answerCandidates(slug, story, ctx.config.publicBaseUrl);
  // Judged as a publish is (design.md#spam-waves): the text before the edit says which bands move with it.
  const judged = ctx.config.duplicateWindowHours > 0 && isListedPublicly(story.frontMatter.visibility, false);
  const spamWaves = judged ? await import('./near-duplicate/near-duplicate-guard.ts') : undefined;
  const previous = spamWaves === undefined ? undefined : await readItem(ctx.store, bodyKey(slug));
  const nearDuplicates = spamWaves?.nearDuplicateGuard(
    story.markdown,
    ctx.config.duplicateWindowHours,
    typeof previous?.markdown === 'string' ? previous.markdown : undefined,
  );

  const outcome = await writeOnce<StoredEditOutcome>(ctx, {
    tool: EDIT_TOOL,
    caller,
    opId,
    fingerprint: fingerprint(EDIT_TOOL, {
      slug,
      markdown: story.markdown,
      kind: input.kind,
      note: note ?? null,
      source: input.source ?? null,
      base_revision: input.base_revision ?? null,
    }),
    reads: [
      storyKey(slug),
      feedMonthsKey,
      capabilityRecordRead(story.capability),
      ...answerReads(slug, candidates),
      ...(nearDuplicates?.reads ?? []),
    ],
    plan(read, { firstRead, now }) {
      const stored = pick(read, storyKey(slug));
      const meta = ownStory(stored === undefined ? undefined : toStoryMeta(stored), slug, caller, 'edit it');
      if (meta.date !== story.frontMatter.date) {
        throw validationFailed(`The date of "${slug}" is fixed at its first publish.`, {
          'front_matter.date': `Keep date ${meta.date}; it never changes.`,
        });
      }
      const first = pick(firstRead, storyKey(slug));
      const baseRevision = input.base_revision ?? (first === undefined ? meta.revision : toStoryMeta(first).revision);
      const at = new Date(now).toISOString();
      const { notified, ...plan } = planNewRevision({
        meta,
        story,
        caller,
        baseRevision,
        record: { kind: input.kind, note, source: input.source },
        at,
        feedMonths: monthsOf(pick(read, feedMonthsKey)),
        links: revisionAnswerLinks(meta, story, candidates, read, caller, at),
      });
      const recorded = withCapabilityRecord(plan, read, {
        report: story.capability,
        visibility: story.frontMatter.visibility,
        hidden: meta.hidden,
        at,
      });
      // An identical edit changes nothing, so it is judged by nothing either; a hidden story is not listed.
      const bands =
        recorded.actions.length === 0 || meta.hidden
          ? []
          : (nearDuplicates?.plan(read, { slug, author: caller.account, at, nowMs: now }) ?? []);
      return { ...recorded, actions: [...recorded.actions, ...bands], outcome: { ...plan.outcome, notified } };
    },
  }).catch(async (error: unknown) => {
    if (spamWaves === undefined) throw error;
    return spamWaves.rethrowKeepingRefusal(ctx, error, {
      account: caller.account,
      slug,
      title: story.frontMatter.title,
      content_hash: story.contentHash,
    });
  });
  return notifyAfterCommit(ctx, announceAfterCommit(ctx, withStoryUrl(ctx, withCapabilityField(withNotified(outcome)))));
}

/**
 * An op record stored before edits answered `notified` (up to a day of them when this deploys)
 * replays without it; its count was never kept, so it answers 0 rather than fail the output schema.
 */
function withNotified(outcome: Replayed<StoredEditOutcome>): Replayed<StoredEditOutcome> {
  return typeof outcome.notified === 'number' ? outcome : { ...outcome, notified: 0 };
}
