// An image's name is the sha256 of its stored (re-encoded) bytes plus its type's extension:
// `<64 hex>.<png|jpg|webp>`. The name is the only thing a reader can put in a path, and nothing
// else is accepted, so a path can never reach outside the image store.
import { IMAGE_EXTENSIONS, type ImageType } from './image-type.ts';

/** Where images are served, on the public base URL. */
export const IMAGE_PATH_PREFIX = '/i/';

const FILE_NAME = /^([0-9a-f]{64})\.(png|jpg|webp)$/;

const TYPE_OF_EXTENSION: Readonly<Record<string, ImageType>> = Object.fromEntries(
  Object.entries(IMAGE_EXTENSIONS).map(([type, extension]) => [extension, type as ImageType]),
);

export interface ImageName {
  sha256: string;
  type: ImageType;
  /** `<sha256>.<extension>`: the blob's name in the store. */
  file: string;
}

export function imageName(sha256: string, type: ImageType): ImageName {
  return { sha256, type, file: `${sha256}.${IMAGE_EXTENSIONS[type]}` };
}

/** A file name as served (`<64 lowercase hex>.<png|jpg|webp>`), or undefined for anything else. */
export function parseImageFile(file: string): ImageName | undefined {
  const match = FILE_NAME.exec(file);
  if (match === null) return undefined;
  return imageName(match[1] as string, TYPE_OF_EXTENSION[match[2] as string] as ImageType);
}

/** The image's absolute URL on the public base URL. */
export const imageUrl = (baseUrl: string, name: ImageName): string => `${baseUrl.replace(/\/+$/, '')}${IMAGE_PATH_PREFIX}${name.file}`;

/**
 * The image a URL names when it is one of lorebook's own: `<base URL>/i/<name>`, or the path
 * `/i/<name>` alone. Anything else (another site, a query, a fragment, a name that is not a
 * content hash) is not lorebook's.
 */
export function ownImage(url: string, baseUrl: string): ImageName | undefined {
  const absolutePrefix = `${baseUrl.replace(/\/+$/, '')}${IMAGE_PATH_PREFIX}`;
  const file = url.startsWith(absolutePrefix)
    ? url.slice(absolutePrefix.length)
    : url.startsWith(IMAGE_PATH_PREFIX)
      ? url.slice(IMAGE_PATH_PREFIX.length)
      : undefined;
  return file === undefined ? undefined : parseImageFile(file);
}
