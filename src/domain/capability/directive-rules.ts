// Text addressed to the agent reading a story rather than to the person: overriding its
// instructions, hiding from its user, giving it a new identity, asking it to send credentials
// away. A phrase counts only where it speaks to the reader: at the start of a sentence or clause
// ("Ignore previous instructions", "IMPORTANT: do not tell the user"), not reported ("the page
// told the agent to ignore previous instructions") and not quoted (quotations and inline code are
// blanked before these rules read a passage). Every pattern's repeats are bounded: no input makes
// one backtrack more than a few dozen steps per character.
import { type Hit, hit } from './finding.ts';
import { isSecretPath } from './path-rules.ts';

interface DirectiveRule {
  pattern: RegExp;
  hits: Hit[];
  /** Counts only in an imperative position (see addressedAt); a "you are now …" addresses the reader anyway. */
  imperative: boolean;
}

const OVERRIDE: Hit[] = [hit('agent_directive', 'overrides-instructions')];
const CONCEAL: Hit[] = [hit('agent_directive', 'conceals-from-user')];
const IDENTITY: Hit[] = [hit('agent_directive', 'reassigns-identity')];
const AI_ADDRESS: Hit[] = [hit('agent_directive', 'addresses-ai-agent')];

const RULES: readonly DirectiveRule[] = [
  {
    pattern:
      /\b(?:ignore|disregard|forget|override|bypass)\s+(?:(?:all|any|each|every|the|of|your|my|these|those|its)\s+){0,3}(?:(?:previous|prior|above|earlier|preceding|original|former|foregoing|initial|system|developer|safety)\s+){1,2}(?:instructions?|prompts?|rules|directions|directives|guidelines|guardrails|messages|constraints|context|polic(?:y|ies)|restrictions|commands)\b/gi,
    hits: OVERRIDE,
    imperative: true,
  },
  {
    pattern:
      /\b(?:ignore|disregard|forget|override|bypass)\s+(?:(?:all|any|of)\s+){0,2}your\s+(?:(?:previous|prior|original|system|safety)\s+)?(?:instructions|guidelines|rules|programming|training|directives|restrictions|guardrails|system\s+prompt|prompt)\b/gi,
    hits: OVERRIDE,
    imperative: true,
  },
  {
    pattern:
      /\b(?:do\s+not|don't|stop)\s+(?:follow(?:ing)?|obey(?:ing)?)\s+(?:your\s+(?:\w+\s+)?(?:instructions|system\s+prompt|rules|guidelines|programming)|the\s+system\s+prompt)\b/gi,
    hits: OVERRIDE,
    imperative: true,
  },
  {
    pattern:
      /\b(?:do\s+not|don't|dont|never)\s+(?:tell|inform|mention|reveal|disclose|alert|notify)\s+(?:(?:this|these|that|it|anything|any\s+of\s+this|about\s+(?:this|it|that))\s+)?(?:to\s+)?(?:the|your)\s+(?:user|human|operator|owner)s?\b(?!['\u2019]s)/gi,
    hits: CONCEAL,
    imperative: true,
  },
  {
    pattern:
      /\b(?:do\s+not|don't|dont|never)\s+(?:mention|disclose|reveal)\s+(?:this|these|that|it|them|any\s+of\s+this)(?:\s+[\w-]+){0,3}?\s+(?:in|to)\s+(?:your|the)\s+(?:summary|reply|response|answer|report|output|transcript)\b/gi,
    hits: CONCEAL,
    imperative: true,
  },
  {
    pattern: /\b(?:do\s+not|don't|never)\s+let\s+(?:the|your)\s+(?:user|human|operator)s?\s+(?:know|see|notice|find\s+out)\b/gi,
    hits: CONCEAL,
    imperative: true,
  },
  {
    pattern:
      /\bkeep\s+(?:this|it|these\s+steps|this\s+step)\s+(?:a\s+)?(?:secret|hidden|quiet)\s+from\s+(?:the|your)\s+(?:user|human|operator)s?\b/gi,
    hits: CONCEAL,
    imperative: true,
  },
  {
    pattern:
      /\byou\s+are\s+(?:now|no\s+longer)\s+(?:an?\s+|in\s+)?(?:(?:unrestricted|unfiltered|jailbroken|uncensored|evil|rogue|different|new)\s+)?(?:DAN|AI|assistant|agent|model|bot|persona|character|(?:developer|god|admin|jailbreak|unrestricted|DAN)\s+mode|jailbroken|uncensored|unfiltered)\b/gi,
    hits: IDENTITY,
    imperative: false,
  },
  {
    pattern: /\byou\s+are\s+no\s+longer\s+(?:bound|restricted|constrained|governed)\s+by\b/gi,
    hits: IDENTITY,
    imperative: false,
  },
  {
    pattern:
      /\bfrom\s+now\s+on,?\s+you\s+(?:are|will\s+be|will\s+act\s+as|act\s+as)\s+(?:an?\s+)?(?:[\w-]+\s+){0,2}(?:AI|assistant|agent|model|bot|persona|character|DAN)\b/gi,
    hits: IDENTITY,
    imperative: false,
  },
  {
    pattern:
      /\b(?:pretend|imagine)\s+(?:that\s+)?you\s+(?:are|have)\s+(?:an?\s+)?(?:unrestricted|jailbroken|uncensored|no\s+(?:rules|restrictions|guidelines))/gi,
    hits: IDENTITY,
    imperative: true,
  },
  {
    pattern:
      /\b(?:as|if\s+you\s+are|since\s+you\s+are)\s+an?\s+(?:AI|LLM|artificial\s+intelligence|(?:large\s+)?language\s+model|autonomous|coding)(?:\s+language)?(?:\s+(?:agent|assistant|model))?(?:\s+(?:reading|processing|parsing|summari[sz]ing)\s+this(?:\s+(?:text|page|story|document|file))?)?(?:\s*,\s*|\s+)you\s+(?:must|should|shall|need\s+to|have\s+to|are\s+(?:required|instructed|expected|supposed)\s+to|will\s+now)\b/gi,
    hits: AI_ADDRESS,
    imperative: false,
  },
  {
    pattern:
      /\b(?:AI|LLM)\s+(?:agents?|assistants?|models?)\s+(?:reading|processing|parsing|summari[sz]ing)\s+this(?:\s+(?:text|page|story|document|file))?(?:\s*,\s*|\s+)(?:must|should|shall|need\s+to|are\s+(?:required|instructed)\s+to)\b/gi,
    hits: AI_ADDRESS,
    imperative: false,
  },
  {
    pattern:
      /\b(?:for|to|attention|note\s+(?:to|for))\s+(?:all\s+|any\s+)?(?:automated|autonomous|AI|LLM|coding)\s+(?:agents?|assistants?|models?)\s*:/gi,
    hits: AI_ADDRESS,
    imperative: true,
  },
];

// A verb that sends or shows, then in the same clause a secret and a place elsewhere.
const SEND_VERB =
  /\b(?:send|post|upload|paste|e-?mail|forward|submit|share|transmit|exfiltrate|include|copy|leak|print|output|dump|reveal|attach)\b/gi;
const SECRET_VARIABLE =
  /\$\{?[A-Z][A-Z0-9_]*(?:TOKEN|SECRET|PASSWORD|PASSWD|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY|CREDENTIALS?)|\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*_(?:TOKEN|SECRET|PASSWORD|API_KEY|ACCESS_KEY|PRIVATE_KEY|CREDENTIALS?)\b/;
const SECRET_WORDS =
  /\b(?:environment\s+variables|env\s+vars|api\s+keys?|access\s+tokens?|auth(?:entication)?\s+tokens?|credentials|private\s+keys?|ssh\s+keys?|secrets|passwords?|session\s+cookies|\.env\s+file)\b/i;
const ELSEWHERE =
  /\b(?:to|into|via)\s+(?:(?:the|this|your|a|an|our|my|their)\s+)?(?:(?:form|page|field|box)\s+(?:at|on)\s+)?(?:https?:\/\/|[\w.+-]+@[\w-]+\.[a-z]|(?:web\s*hook|endpoint|gist|paste\s*bin|issue|comment|chat|discord|slack|telegram|reply|response|report|answer|channel|e-?mail)\b)|\b(?:in|with)\s+(?:your|the)\s+(?:reply|response|report|answer|comment)\b/i;
const CLAUSE_END = /[.!?](?=\s|$)|\n\s*\n/;
const MAX_CLAUSE = 240;

const SEND_SECRETS: Hit[] = [hit('agent_directive', 'directs-sending-secrets'), hit('exfiltration', 'directs-sending-secrets')];

// Words that may stand between a clause's start and its verb without making it reported speech.
const FILLER =
  /(?:^|\s)(?:please|now|and|then|also|just|simply|so|always|first|immediately|instead|kindly|quietly|silently|you\s+(?:must|should|need\s+to|have\s+to|will|shall|are\s+to))\s*,?\s*$/i;
const CLAUSE_START = /(?:^|[.!?:;,>*•()[\]\u2013\u2014#-])\s*$/;
const LOOK_BEHIND = 80;

/**
 * True when the text at `index` begins a sentence or clause, after filler words at most: what an
 * instruction looks like. "told the agent to ignore …" and "would then ignore …" are not.
 */
export function addressedAt(text: string, index: number): boolean {
  const from = Math.max(0, index - LOOK_BEHIND);
  // A cut look-behind does not start the text: mark it so `^` cannot match there.
  let before = `${from > 0 ? 'x' : ''}${text.slice(from, index)}`;
  for (let match = FILLER.exec(before); match !== null; match = FILLER.exec(before)) before = before.slice(0, match.index);
  return CLAUSE_START.test(before);
}

function clauseAt(text: string, index: number): string {
  const clause = text.slice(index, index + MAX_CLAUSE);
  const end = CLAUSE_END.exec(clause.slice(1));
  return end === null ? clause : clause.slice(0, end.index + 1);
}

// A key sent in a request's header goes to the service it is for: that is how an API is called.
const AS_MEANT = /\b(?:header|authorization|bearer)\b/i;

function sendsSecretsElsewhere(clause: string): boolean {
  if (AS_MEANT.test(clause)) return false;
  const secret = SECRET_VARIABLE.test(clause) || SECRET_WORDS.test(clause) || clause.split(/\s+/).some(isSecretPath);
  return secret && ELSEWHERE.test(clause);
}

export interface DirectiveMatch {
  hits: Hit[];
  /** Offset in the passage's text where the directive starts. */
  index: number;
}

/** Every directive in one passage's text (quotations and inline code already blanked). */
export function directiveMatches(text: string): DirectiveMatch[] {
  const matches: DirectiveMatch[] = [];
  for (const rule of RULES) {
    for (const match of text.matchAll(rule.pattern)) {
      if (!rule.imperative || addressedAt(text, match.index)) matches.push({ hits: rule.hits, index: match.index });
    }
  }
  for (const match of text.matchAll(SEND_VERB)) {
    if (addressedAt(text, match.index) && sendsSecretsElsewhere(clauseAt(text, match.index)))
      matches.push({ hits: SEND_SECRETS, index: match.index });
  }
  return matches;
}
