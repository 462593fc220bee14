// What one scan may cost. A story is already at most 64 KiB (src/domain/story/story-limits.ts);
// these bound the scan of any text (a skill, a contract) and keep the report small.

/** Largest text accepted, in UTF-8 bytes. */
export const MAX_SCAN_TEXT_BYTES = 256 * 1024;
/** Code blocks and inline code spans read in one text: each costs a parse. */
export const MAX_SCANNED_PIECES = 4096;
/** `bash -c '…'` inside `sh -c "…"`: strings parsed as shell past this depth are token-scanned instead. */
export const MAX_SHELL_DEPTH = 3;
/** Characters of evidence kept per finding (an ellipsis marks a cut). */
export const MAX_EVIDENCE_CHARS = 200;
/**
 * Findings listed per report; the tier is taken over all of them, and the rest are counted. The
 * report is kept on the story's META item, which every feed and author listing reads: 32 findings
 * of at most 200 characters of evidence keep it near 10 KB, where 256 made it up to ~90 KB.
 */
export const MAX_FINDINGS = 32;
/**
 * Findings from the rest of a story (section `story`: text addressed to the reading agent in the
 * narrative) listed besides those: bounded apart, so they never push a step's finding out of the
 * list and the steps' findings stay a function of the steps' text (the badge's record is made
 * from them).
 */
export const MAX_STORY_FINDINGS = 8;
