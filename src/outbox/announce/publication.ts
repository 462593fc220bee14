// The site's standard.site publication (docs/design.md#standard-site), written once per process before the
// first document: the port leaves an identical record alone, and the store keeps its at-uri for
// `/.well-known/site.standard.publication`. A failure is not remembered: the next document tries again.
import type { AppContext } from '../../app/context/app-context.ts';
import { recordPublication } from '../../store/site-publication.ts';
import type { RecordRef } from '../document-port.ts';
import type { AnnounceDocuments } from './announcer.ts';

const written = new WeakMap<AnnounceDocuments, Promise<RecordRef>>();

export function publicationOf(ctx: AppContext, documents: AnnounceDocuments): Promise<RecordRef> {
  const known = written.get(documents);
  if (known !== undefined) return known;
  const writing = (async () => {
    const ref = await documents.port.publication(documents.publication);
    await recordPublication(ctx.store, { ...ref, url: documents.publication.url });
    return ref;
  })();
  written.set(documents, writing);
  writing.catch(() => written.delete(documents));
  return writing;
}
