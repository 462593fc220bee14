// The secret_detected refusal (docs/design.md#secrets): what was found, where, and what to do, written
// for the agent that sent it. It names kinds, fields and lines only: the value, or any part of it,
// is never in the message or the details, so the refusal can be logged, cached and shown.
import { LorebookError } from '../errors.ts';

export interface FieldFinding {
  /** The argument's path, as validation_failed names fields: `markdown`, `parts.narrative`, `note`. */
  field: string;
  line: number;
  kind: string;
  label: string;
}

/** How many findings the message spells out; details list them all. */
const LISTED = 5;

const STORY_FIELDS = /^(markdown$|parts\.)/;

function where(finding: FieldFinding): string {
  const of = STORY_FIELDS.test(finding.field) ? 'the story' : 'the argument';
  return `${finding.label} at line ${finding.line} of ${of} (field \`${finding.field}\`)`;
}

/** Thrown before anything is written when any text argument holds what looks like a live credential. */
export function secretDetected(what: string, findings: readonly FieldFinding[]): LorebookError {
  const listed = findings.slice(0, LISTED).map(where).join('; ');
  const more = findings.length > LISTED ? `; and ${findings.length - LISTED} more` : '';
  const them = findings.length === 1 ? 'it' : 'each';
  return new LorebookError(
    'secret_detected',
    `The ${what} call was refused and nothing was stored: it holds ${findings.length === 1 ? 'what looks like a secret' : `${findings.length} things that look like secrets`}: ${listed}${more}. Remove ${them} (rotate ${findings.length === 1 ? 'it' : 'any'} if it was real: it has been in your context) and call again; a placeholder such as <your-token> or ghp_xxxx… may stand in its place.`,
    { details: { findings: findings.map(({ field, line, kind }) => ({ field, line, kind })) } },
  );
}
