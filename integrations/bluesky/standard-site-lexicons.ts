// The lexicons lorebook writes standard.site records by (lexicons/ at the repository root, written
// from the public standard.site specification, and lorebook's own dev.lorebook.story), loaded
// into @atproto/lexicon. Every record is checked here before it is sent: a PDS does not know
// these lexicons and would store whatever it is given.
import { schemas } from '@atproto/api';
import { type LexiconDoc, Lexicons } from '@atproto/lexicon';
import story from '../../lexicons/dev/lorebook/story.json' with { type: 'json' };
import document from '../../lexicons/site/standard/document.json' with { type: 'json' };
import publication from '../../lexicons/site/standard/publication.json' with { type: 'json' };

export const PUBLICATION_COLLECTION = 'site.standard.publication';
export const DOCUMENT_COLLECTION = 'site.standard.document';
export const STORY_CONTENT_TYPE = 'dev.lorebook.story';

// The document's bskyPostRef is atproto's own strong ref: taken from @atproto/api, not rewritten.
const strongRef = schemas.find((schema) => schema.id === 'com.atproto.repo.strongRef') as LexiconDoc;

const lexicons = new Lexicons([publication as LexiconDoc, document as LexiconDoc, story as LexiconDoc, strongRef]);

/** A record that does not match its lexicon; the message names the field. */
export class InvalidStandardSiteRecord extends Error {
  override readonly name = 'InvalidStandardSiteRecord';
}

/**
 * Throws InvalidStandardSiteRecord unless the record matches its collection's lexicon. A
 * document's content is an open union, which the record's own lexicon does not look into: a
 * dev.lorebook.story content is checked against its lexicon too.
 */
export function assertValidStandardSiteRecord(
  collection: typeof PUBLICATION_COLLECTION | typeof DOCUMENT_COLLECTION,
  record: unknown,
): void {
  try {
    lexicons.assertValidRecord(collection, record);
  } catch (error) {
    throw new InvalidStandardSiteRecord(`${collection}: ${(error as Error).message}`);
  }
  const content = (record as { content?: { $type?: unknown } }).content;
  if (collection !== DOCUMENT_COLLECTION || content?.$type !== STORY_CONTENT_TYPE) return;
  const checked = lexicons.validate(STORY_CONTENT_TYPE, content);
  if (!checked.success) throw new InvalidStandardSiteRecord(`${STORY_CONTENT_TYPE} (the document's content): ${checked.error.message}`);
}
