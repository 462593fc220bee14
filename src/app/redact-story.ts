// redact_story — author only, keyed by slug, conditioned on the revision it is based on, like an
// edit (docs/design.md#redaction-export). The redacted text becomes a new revision of kind `redaction` (BODY,
// META, the content hash, search, the .md page and the standard.site document follow it as they
// follow an edit), and every earlier revision loses its markdown. The same text as now makes no
// new revision: the current one stays and only the earlier ones are stripped. The stripping runs
// after the commit in bounded, idempotent steps (./redaction/finish-redaction.ts), driven by an
// outbox event the redaction's transaction writes, so a crash never leaves it half done for long.

import type { ScannedStory } from '../domain/capability/scanned-story.ts';
import { validationFailed } from '../domain/errors.ts';
import { fingerprint } from '../domain/fingerprint.ts';
import { parseOpId } from '../domain/op-id.ts';
import { parseSlug } from '../domain/story/slug.ts';
import { feedMonthsKey, storyKey } from '../store/keys.ts';
import { type ItemsByKey, pick } from '../store/read-items.ts';
import { createItem } from '../store/replace-by-key.ts';
import { monthsOf } from '../store/story/feed-months.ts';
import { redactionOutboxItem } from '../store/story/redaction-items.ts';
import { type StoryMeta, toStoryMeta } from '../store/story/story-items.ts';
import { updateItem } from '../store/update-item.ts';
import { ownStory } from './caller/story-access.ts';
import { capabilityRecordRead, withCapabilityRecord } from './capability/capability-record-write.ts';
import type { AppContext, Caller } from './context/app-context.ts';
import { parseWriteInput } from './input/parse-write-input.ts';
import { REDACT_TOOL, type RedactOutcome, redactStoryInputSchema, type StoredRedactOutcome } from './redact-story.contract.ts';
import { finishRedactions } from './redaction/finish-redaction.ts';
import { answerCandidates, answerReads, revisionAnswerLinks } from './story-content/answer-links.ts';
import { contentOutcome, planNewRevision, planUnchanged, withCapabilityField, withStoryUrl } from './story-content/content-write.ts';
import { parseStoryOffloaded } from './story-content/parse-story-task.ts';
import { announceAfterCommit } from './write/announce-after-commit.ts';
import { type Replayed, type WritePlan, writeOnce } from './write/write-once.ts';

export async function redactStory(ctx: AppContext, caller: Caller, raw: unknown): Promise<Replayed<RedactOutcome>> {
  const input = await parseWriteInput(redactStoryInputSchema, raw, REDACT_TOOL, ctx);
  const slug = parseSlug(input.slug);
  const opId = input.op_id === undefined ? undefined : parseOpId(input.op_id);
  // The same door as an edit: the limits, the parse and the validation.
  const story = await parseStoryOffloaded({ markdown: input.markdown }, ctx);
  const candidates = answerCandidates(slug, story, ctx.config.publicBaseUrl);

  const outcome = await writeOnce<StoredRedactOutcome>(ctx, {
    tool: REDACT_TOOL,
    caller,
    opId,
    fingerprint: fingerprint(REDACT_TOOL, { slug, markdown: story.markdown, base_revision: input.base_revision }),
    reads: [storyKey(slug), feedMonthsKey, capabilityRecordRead(story.capability), ...answerReads(slug, candidates)],
    plan(read, { now }) {
      const stored = pick(read, storyKey(slug));
      const meta = ownStory(stored === undefined ? undefined : toStoryMeta(stored), slug, caller, 'redact it');
      if (meta.date !== story.frontMatter.date) {
        throw validationFailed(`The date of "${slug}" is fixed at its first publish.`, {
          'front_matter.date': `Keep date ${meta.date}; it never changes.`,
        });
      }
      const at = new Date(now).toISOString();
      if (meta.content_hash === story.contentHash) return planKeepingText(meta, at);
      return planRedactedText(meta, story, read, { caller, baseRevision: input.base_revision, at, candidates });
    },
  });
  // Before answering: the earlier texts are gone when the answer says so. Images are the sweeper's
  // (or `npm start`'s dispatcher's) to delete; a crash here leaves the event, and they finish it.
  await finishRedactions(ctx, { slug, stripOnly: true });
  ctx.dispatchSoon?.();
  return announceAfterCommit(ctx, withStoryUrl(ctx, withCapabilityField(outcome)));
}

/**
 * The same text as now: no new revision. The first time, META records that every revision below
 * the current one is redacted and the event is written; after that (a repeat) nothing is left to do.
 */
function planKeepingText(meta: StoryMeta, at: string): WritePlan<StoredRedactOutcome> {
  const outcome = { ...contentOutcome(meta), redacted_below: meta.revision };
  if ((meta.redacted_below ?? 0) >= meta.revision) return { ...planUnchanged(meta), outcome };
  return {
    outcome,
    actions: [
      // Conditioned on the text read: an edit in between makes the re-plan decide again.
      updateItem(
        storyKey(meta.slug),
        { set: { redacted_below: meta.revision } },
        { expression: 'revision = :revision AND content_hash = :hash', values: { ':revision': meta.revision, ':hash': meta.content_hash } },
      ),
      createItem(redactionOutboxItem({ kind: 'redaction', slug: meta.slug, below: meta.revision, author: meta.author, at })),
    ],
    guards: [],
  };
}

interface RedactedText {
  caller: Caller;
  baseRevision: number;
  at: string;
  candidates: string[];
}

/** A new text: a revision of kind `redaction` on top of the base revision, as an edit would write it. */
function planRedactedText(meta: StoryMeta, story: ScannedStory, read: ItemsByKey, change: RedactedText): WritePlan<StoredRedactOutcome> {
  const below = meta.revision + 1;
  const { notified: _none, ...plan } = planNewRevision({
    meta,
    story,
    caller: change.caller,
    baseRevision: change.baseRevision,
    record: { kind: 'redaction' },
    at: change.at,
    feedMonths: monthsOf(pick(read, feedMonthsKey)),
    links: revisionAnswerLinks(meta, story, change.candidates, read, change.caller, change.at),
    alsoSet: { redacted_below: below },
  });
  const recorded = withCapabilityRecord(plan, read, {
    report: story.capability,
    visibility: story.frontMatter.visibility,
    hidden: meta.hidden,
    at: change.at,
  });
  recorded.actions.push(createItem(redactionOutboxItem({ kind: 'redaction', slug: meta.slug, below, author: meta.author, at: change.at })));
  return { ...recorded, outcome: { ...plan.outcome, redacted_below: below } };
}
