const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a `YYYY-MM-DD` string (the shape alone, not whether the day exists). */
export function isIsoDateShape(value: string): boolean {
  return ISO_DATE.test(value);
}

/** True for a `YYYY-MM-DD` string naming a day that exists (no 2026-02-30). */
export function isCalendarDate(value: string): boolean {
  const match = ISO_DATE.exec(value);
  if (match === null) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}
