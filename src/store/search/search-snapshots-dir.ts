// Search snapshots in a local directory (`npm start`: LOREBOOK_SEARCH_DIR). A put writes a
// temporary file and renames it into place, so a reader never sees half a snapshot and a job
// killed mid-write leaves only a temporary file, which the next prune removes.
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { type SearchSnapshots, snapshotsUnavailable } from './search-snapshots.ts';

export function searchSnapshotsInDirectory(directory: string): SearchSnapshots {
  const root = resolve(directory);
  let created: Promise<unknown> | undefined;
  return {
    describe: `the directory ${root}`,
    async put(name, data) {
      created ??= mkdir(root, { recursive: true });
      await created;
      const partial = join(root, `.${name}.${randomBytes(6).toString('hex')}.partial`);
      try {
        await writeFile(partial, data);
        await rename(partial, join(root, name));
      } catch (error) {
        await rm(partial, { force: true });
        throw snapshotsUnavailable('write', error);
      }
    },
    async get(name) {
      try {
        return new Uint8Array(await readFile(join(root, name)));
      } catch (error) {
        if ((error as { code?: string }).code === 'ENOENT') return undefined;
        throw snapshotsUnavailable('read', error);
      }
    },
    async prune(keep) {
      const oldestKept = [...keep].sort()[0];
      if (oldestKept === undefined) return;
      const names = await readdir(root).catch(() => [] as string[]);
      const stale = names.filter((name) => !keep.includes(name) && (name.startsWith('.') ? name.endsWith('.partial') : name < oldestKept));
      await Promise.all(stale.map((name) => rm(join(root, name), { force: true })));
    },
    async remove(name) {
      await rm(join(root, name), { force: true });
    },
  };
}
