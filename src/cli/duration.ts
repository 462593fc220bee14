// Token lifetimes as people type them: `30d`, `12h`, `90m`, `3600s`, `2w`, `1y` (365 days).
const UNIT_SECONDS: Readonly<Record<string, number>> = { s: 1, m: 60, h: 3600, d: 86_400, w: 604_800, y: 31_536_000 };
const DURATION = /^(\d+)([smhdwy])$/;

/** Seconds, or undefined when the text is not `<whole number><s|m|h|d|w|y>`. */
export function parseDuration(text: string): number | undefined {
  const match = DURATION.exec(text.trim().toLowerCase());
  if (match === null) return undefined;
  const [, amount = '', unit = ''] = match;
  const seconds = Number(amount) * (UNIT_SECONDS[unit] ?? 0);
  return Number.isSafeInteger(seconds) && seconds > 0 ? seconds : undefined;
}
