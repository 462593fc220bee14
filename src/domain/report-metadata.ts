// A reproduction's agent and env as worklore's skill sends them ({name, version, model} and
// {os, …}) or as plain strings. Either way the report keeps one readable summary string (its
// identity and what a string caller sent) and, for an object, the structured fields beside it so
// aggregates can count by agent family and OS. Structured fields are bounded so the summary
// always fits the string limits (src/domain/report-limits.ts).
import { normaliseText } from './free-text.ts';

export const MAX_AGENT_NAME_CHARS = 30;
export const MAX_AGENT_VERSION_CHARS = 20;
export const MAX_AGENT_MODEL_CHARS = 40;
export const MAX_ENV_KEYS = 6;
export const MAX_ENV_VALUE_CHARS = 40;
/** Lower-case words with digits and underscores: an env key is a label, never free text. */
export const ENV_KEY_PATTERN = /^[a-z][a-z0-9_]{0,31}$/;

export interface AgentFields {
  name: string;
  version?: string;
  model?: string;
}

export type EnvFields = Record<string, string>;

export interface ReportMetadata<F> {
  /** The readable summary: the report's identity and what lists would show. */
  summary: string | undefined;
  /** Present only when the caller sent an object. */
  fields: F | undefined;
}

/** `claude-code 1.2.0 (claude-sonnet-4)` from the object; a string is kept as sent (normalised). */
export function agentMetadata(agent: string | AgentFields | undefined): ReportMetadata<AgentFields> {
  if (agent === undefined || typeof agent === 'string') return { summary: normaliseText(agent), fields: undefined };
  const name = normaliseText(agent.name) ?? '';
  const version = normaliseText(agent.version);
  const model = normaliseText(agent.model);
  const fields: AgentFields = { name, ...(version === undefined ? {} : { version }), ...(model === undefined ? {} : { model }) };
  const summary = [name, version, model === undefined ? undefined : `(${model})`].filter((part) => part !== undefined).join(' ');
  return { summary, fields };
}

/** `node: 22; os: linux`, keys sorted so the same env sent in another key order is the same report. */
export function envMetadata(env: string | EnvFields | undefined): ReportMetadata<EnvFields> {
  if (env === undefined || typeof env === 'string') return { summary: normaliseText(env), fields: undefined };
  const fields: EnvFields = {};
  for (const key of Object.keys(env).sort()) {
    const value = normaliseText(env[key]);
    if (value !== undefined) fields[key] = value;
  }
  const entries = Object.entries(fields);
  if (entries.length === 0) return { summary: undefined, fields: undefined };
  return { summary: entries.map(([key, value]) => `${key}: ${value}`).join('; '), fields };
}
