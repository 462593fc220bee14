// Reading a stored image back (serving, the announcer's link-card thumbnail): the image record
// first, then the blob. Only images an upload recorded are ever read, so a blob left behind by a
// crash between the blob write and the records is never served, and a name nobody uploaded is
// answered without touching the blob store.
import type { ImageName } from '../../domain/image/image-name.ts';
import { imageKey } from '../../store/image/items.ts';
import { readItem } from '../../store/read-items.ts';
import type { AppContext } from '../context/app-context.ts';

export interface StoredImage {
  data: Uint8Array;
  type: string;
}

export async function readImage(ctx: AppContext, name: ImageName): Promise<StoredImage | undefined> {
  if (ctx.images === undefined) return undefined;
  const record = await readItem(ctx.store, imageKey(name.sha256));
  if (record === undefined || record.type !== name.type) return undefined;
  const data = await ctx.images.get(name.file);
  return data === undefined ? undefined : { data, type: name.type };
}
