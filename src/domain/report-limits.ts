// How much a reproduction or check report may carry: a note is the same size for both.

export const MAX_REPORT_NOTE_CHARS = 2000;
export const MAX_REPORT_AGENT_CHARS = 100;
export const MAX_REPORT_ENV_CHARS = 500;
export const MAX_DURATION_MIN = 100_000;
