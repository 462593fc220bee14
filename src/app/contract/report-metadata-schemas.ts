// The agent and env of a reproduction report: a string, or the object worklore's skill sends.
// Every part is bounded (src/domain/report-metadata.ts), so no report can grow unbounded.
import { z } from 'zod';
import { MAX_REPORT_AGENT_CHARS, MAX_REPORT_ENV_CHARS } from '../../domain/report-limits.ts';
import {
  ENV_KEY_PATTERN,
  MAX_AGENT_MODEL_CHARS,
  MAX_AGENT_NAME_CHARS,
  MAX_AGENT_VERSION_CHARS,
  MAX_ENV_KEYS,
  MAX_ENV_VALUE_CHARS,
} from '../../domain/report-metadata.ts';

const agentObjectSchema = z.strictObject({
  name: z
    .string()
    .trim()
    .min(1, 'Name the agent, e.g. "claude-code".')
    .max(MAX_AGENT_NAME_CHARS, `At most ${MAX_AGENT_NAME_CHARS} characters: the agent family, e.g. "claude-code".`)
    .describe('The agent family, e.g. "claude-code".'),
  version: z
    .string()
    .max(MAX_AGENT_VERSION_CHARS, `At most ${MAX_AGENT_VERSION_CHARS} characters.`)
    .optional()
    .describe("The agent's version."),
  model: z
    .string()
    .max(MAX_AGENT_MODEL_CHARS, `At most ${MAX_AGENT_MODEL_CHARS} characters: the model id.`)
    .optional()
    .describe('The model id it ran on.'),
});

export const reportAgentSchema = z.union([z.string().max(MAX_REPORT_AGENT_CHARS), agentObjectSchema], {
  error: `Send a string of at most ${MAX_REPORT_AGENT_CHARS} characters or an object {name, version, model} (name required, at most ${MAX_AGENT_NAME_CHARS}, ${MAX_AGENT_VERSION_CHARS} and ${MAX_AGENT_MODEL_CHARS} characters, no other keys).`,
});

const envObjectSchema = z
  .record(
    z.string().regex(ENV_KEY_PATTERN, 'Env keys are lower-case labels like "os" or "node".'),
    z.string().max(MAX_ENV_VALUE_CHARS, `At most ${MAX_ENV_VALUE_CHARS} characters per env value.`),
  )
  .refine((env) => Object.keys(env).length <= MAX_ENV_KEYS, `At most ${MAX_ENV_KEYS} env keys.`)
  .describe('e.g. {"os": "linux"}.');

export const reportEnvSchema = z.union([z.string().max(MAX_REPORT_ENV_CHARS), envObjectSchema], {
  error: `Send a string of at most ${MAX_REPORT_ENV_CHARS} characters or an object like {"os": "linux"} (at most ${MAX_ENV_KEYS} lower-case keys, string values of at most ${MAX_ENV_VALUE_CHARS} characters).`,
});
