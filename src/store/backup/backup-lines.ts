// The backup file (docs/backup.md): one JSON value per line, so it is written and read a line at
// a time in bounded memory. The first line is the header (format and version), then one line
// per item (its attributes in DynamoDB's own typed form, so a number keeps its digits and a set
// stays a set) and per image blob, and last a trailer with the counts: a file cut short has no
// trailer, and the import says so.
import type { AttributeValue } from '@aws-sdk/client-dynamodb';

export const BACKUP_FORMAT = 'lorebook-backup';
/** Raised when a line's shape changes; an import refuses a version it does not know. */
export const BACKUP_VERSION = 1;

export type StoredItem = Record<string, AttributeValue>;

export interface BackupHeader {
  format: typeof BACKUP_FORMAT;
  version: number;
  table: string;
  exported_at: string;
}

export interface BackupCounts {
  items: number;
  images: number;
}

export type BackupLine =
  | { kind: 'item'; item: StoredItem }
  | { kind: 'image'; file: string; data: Uint8Array }
  | { kind: 'end'; counts: BackupCounts };

export const headerLine = (header: BackupHeader): string => `${JSON.stringify(header)}\n`;
export const itemLine = (item: StoredItem): string => `${JSON.stringify({ item: toJson(item) })}\n`;
export const imageLine = (file: string, data: Uint8Array): string =>
  `${JSON.stringify({ image: file, data: Buffer.from(data).toString('base64') })}\n`;
export const endLine = (counts: BackupCounts): string => `${JSON.stringify({ end: counts })}\n`;

export function parseHeader(line: string | undefined): BackupHeader {
  const header = line === undefined ? undefined : (safeParse(line) as Partial<BackupHeader> | undefined);
  if (header?.format !== BACKUP_FORMAT) throw new Error('not a lorebook backup: the first line is not its header');
  if (header.version !== BACKUP_VERSION)
    throw new Error(`backup version ${String(header.version)} is not one this lorebook reads (it reads version ${BACKUP_VERSION})`);
  return header as BackupHeader;
}

export function parseLine(line: string, number: number): BackupLine {
  const value = safeParse(line) as { item?: unknown; image?: unknown; data?: unknown; end?: unknown } | undefined;
  if (value !== undefined && typeof value.item === 'object' && value.item !== null)
    return { kind: 'item', item: fromJson(value.item as Record<string, unknown>) };
  if (value !== undefined && typeof value.image === 'string' && typeof value.data === 'string')
    return { kind: 'image', file: value.image, data: new Uint8Array(Buffer.from(value.data, 'base64')) };
  const end = value?.end as Partial<BackupCounts> | undefined;
  if (typeof end?.items === 'number' && typeof end.images === 'number')
    return { kind: 'end', counts: { items: end.items, images: end.images } };
  throw new Error(`line ${number} is not an item, an image or the trailer`);
}

function safeParse(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

// Binary values (B, BS) are the only ones JSON cannot hold as they are: they travel as base64.
const toBase64 = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64');
const fromBase64 = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, 'base64'));

function toJson(item: StoredItem): Record<string, unknown> {
  return Object.fromEntries(Object.entries(item).map(([name, value]) => [name, valueToJson(value)]));
}

function valueToJson(value: AttributeValue): unknown {
  if (value.B !== undefined) return { B: toBase64(value.B) };
  if (value.BS !== undefined) return { BS: value.BS.map(toBase64) };
  if (value.M !== undefined) return { M: toJson(value.M) };
  if (value.L !== undefined) return { L: value.L.map(valueToJson) };
  return value;
}

function fromJson(item: Record<string, unknown>): StoredItem {
  return Object.fromEntries(Object.entries(item).map(([name, value]) => [name, valueFromJson(value as Record<string, unknown>)]));
}

function valueFromJson(value: Record<string, unknown>): AttributeValue {
  if (typeof value.B === 'string') return { B: fromBase64(value.B) };
  if (Array.isArray(value.BS)) return { BS: (value.BS as string[]).map(fromBase64) };
  if (typeof value.M === 'object' && value.M !== null) return { M: fromJson(value.M as Record<string, unknown>) };
  if (Array.isArray(value.L)) return { L: (value.L as Record<string, unknown>[]).map(valueFromJson) };
  return value as unknown as AttributeValue;
}
