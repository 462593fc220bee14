// Scanner versions in order: MAJOR.MINOR.PATCH compared as numbers, so 1.10.0 is newer than
// 1.9.0 (string order would say otherwise). A re-scan replaces only an older report, never a
// newer one: an older deployment still running beside a newer one must not undo its re-scan.

const VERSION = /^(\d{1,9})\.(\d{1,9})\.(\d{1,9})$/;

/** The numbers of a scanner version, or undefined for anything that is not MAJOR.MINOR.PATCH. */
export function scannerVersionNumbers(version: string): [number, number, number] | undefined {
  const match = VERSION.exec(version);
  return match === null ? undefined : [Number(match[1]), Number(match[2]), Number(match[3])];
}

/**
 * Negative when `a` is older than `b`, 0 when the same, positive when newer. Something that is
 * not a version (a report stored by no scanner this code knows) counts as older than any version.
 */
export function compareScannerVersions(a: string, b: string): number {
  const left = scannerVersionNumbers(a);
  const right = scannerVersionNumbers(b);
  if (left === undefined || right === undefined) return (left === undefined ? -1 : 0) - (right === undefined ? -1 : 0);
  for (let part = 0; part < 3; part += 1) {
    const difference = (left[part] ?? 0) - (right[part] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}
