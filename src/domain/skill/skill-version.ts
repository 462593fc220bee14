// Skill versions, compared semver-style: MAJOR.MINOR.PATCH, missing parts are 0, and a
// pre-release (`1.2.0-beta`) comes before its release. Only the numbers and the presence of a
// pre-release count; that is all a "your skill is behind" answer needs.

/** A version header longer than this is no version of ours: never parsed, so it costs nothing. */
export const MAX_SKILL_VERSION_LENGTH = 64;

const VERSION = /^v?(\d{1,9})(?:\.(\d{1,9}))?(?:\.(\d{1,9}))?(-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;

export interface SkillVersion {
  numbers: readonly [number, number, number];
  preRelease: boolean;
}

export function parseSkillVersion(text: string): SkillVersion | undefined {
  if (text.length > MAX_SKILL_VERSION_LENGTH) return undefined;
  const match = VERSION.exec(text.trim());
  if (match === null) return undefined;
  return { numbers: [Number(match[1]), Number(match[2] ?? 0), Number(match[3] ?? 0)], preRelease: match[4] !== undefined };
}

/** Negative when a is older than b, 0 when the same, positive when newer. */
export function compareSkillVersions(a: SkillVersion, b: SkillVersion): number {
  for (let i = 0; i < 3; i++) {
    const difference = (a.numbers[i] ?? 0) - (b.numbers[i] ?? 0);
    if (difference !== 0) return difference;
  }
  return Number(b.preRelease) - Number(a.preRelease);
}

/**
 * Whether a caller that says it runs skill `sent` should be told about `served`. Something that
 * is not a version (garbage, too long) cannot be a copy of the served skill, so it is told too;
 * a newer version (a skill being written against this server) is not.
 */
export function skillIsBehind(sent: string, served: SkillVersion): boolean {
  const version = parseSkillVersion(sent);
  return version === undefined || compareSkillVersions(version, served) < 0;
}
