// Stream sequence numbers are decimal strings of 21 to 40 digits that grow within a shard. Compared
// as numbers, and stored zero-padded to 40 digits so a condition expression can compare them as
// strings (the forward-only checkpoint).
const WIDTH = 40;

export function compareSequence(a = '0', b = '0'): number {
  const left = BigInt(a);
  const right = BigInt(b);
  return left < right ? -1 : left > right ? 1 : 0;
}

export const paddedSequence = (sequence: string): string => BigInt(sequence).toString().padStart(WIDTH, '0');
