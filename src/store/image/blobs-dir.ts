// Image blobs in a local directory (`npm start`: LOREBOOK_IMAGE_DIR). A put writes a temporary
// file beside the target and renames it into place, so a reader never sees half an image and a
// crash mid-write leaves only a temporary file, never a short blob under a content-hash name.
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { ImageBlobs } from './blobs.ts';
import { storeUnavailable } from './blobs-trouble.ts';

export function imageBlobsInDirectory(directory: string): ImageBlobs {
  const root = resolve(directory);
  let created: Promise<unknown> | undefined;
  return {
    describe: `the directory ${root}`,
    async put(file, data) {
      created ??= mkdir(root, { recursive: true });
      await created;
      const target = join(root, file);
      const partial = join(root, `.${file}.${randomBytes(6).toString('hex')}.partial`);
      try {
        await writeFile(partial, data);
        await rename(partial, target);
      } catch (error) {
        await rm(partial, { force: true });
        throw storeUnavailable('write', error);
      }
    },
    async get(file) {
      try {
        return new Uint8Array(await readFile(join(root, file)));
      } catch (error) {
        if ((error as { code?: string }).code === 'ENOENT') return undefined;
        throw storeUnavailable('read', error);
      }
    },
    async delete(file) {
      try {
        await rm(join(root, file), { force: true });
      } catch (error) {
        throw storeUnavailable('delete', error);
      }
    },
  };
}
