// The OpenAPI 3.1 document of /v1, generated from the route declarations and their zod schemas
// (zod 4's toJSONSchema; OpenAPI 3.1 speaks JSON Schema 2020-12). Built once per process.
import { z } from 'zod';
import { inputJsonSchema, type JsonSchema, outputJsonSchema } from '../../app/contract/json-schema.ts';
import { httpRouteIsAnonymous } from '../../auth/access-rule.ts';
import { ERROR_HTTP_STATUS, type ErrorCode, errorBodySchema } from '../../domain/errors.ts';
import { MAX_OP_ID_LENGTH } from '../../domain/op-id.ts';
import { SKILL_HEADER, skillUpdateSchema } from '../skill-update.ts';
import { OPENAPI_PATH, openApiPath, type V1Route } from './route.ts';
import { V1_ROUTES } from './routes.ts';

const problemSchema = errorBodySchema
  .extend({
    type: z.string().describe('urn:lorebook:problem:<code>'),
    title: z.string(),
    status: z.number().int(),
    detail: z.string().describe('The same text as message.'),
  })
  .describe('An RFC 9457 problem with the lorebook error fields (code, message, retryable, retry_after_ms, details).');

const HEADER_PARAMETERS = {
  'Idempotency-Key': {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    description:
      'The op_id: for apps replaying queued requests. The same key with the same request answers the stored answer (original status, `Idempotent-Replayed: true`); with another request it is 422 idempotency_key_reused. Shared with MCP op_id: one key through MCP and then HTTP is one change. Kept 24 h.',
    schema: { type: 'string', minLength: 1, maxLength: MAX_OP_ID_LENGTH, pattern: '^[A-Za-z0-9._:-]+$' },
  },
  'If-Match': {
    name: 'If-Match',
    in: 'header',
    required: false,
    description: 'The ETag of the story version the change is based on ("<revision>", quotes included): its base_revision.',
    schema: { type: 'string', pattern: '^"[0-9]+"$' },
  },
  'X-Revision-Kind': {
    name: 'X-Revision-Kind',
    in: 'header',
    required: false,
    description:
      "The edit's kind, as worklore's skill sends it: the same as `kind` (rephrase, addition or correction). Send it once: header and query/body must agree.",
    schema: { type: 'string', enum: ['rephrase', 'addition', 'correction'] },
  },
  'X-Revision-Note': {
    name: 'X-Revision-Note',
    in: 'header',
    required: false,
    description: 'What changed, as worklore names it: the same as `note` (required for a correction). UTF-8 is accepted.',
    schema: { type: 'string' },
  },
  'X-Revision-Source': {
    name: 'X-Revision-Source',
    in: 'header',
    required: false,
    description: 'Where the new information came from, as worklore names it: the same as `source`. UTF-8 is accepted.',
    schema: { type: 'string' },
  },
} as const;

const SKILL_HEADER_PARAMETER = {
  name: SKILL_HEADER,
  in: 'header',
  required: false,
  description:
    "The version of lorebook's skill the caller follows (GET /v1/skill). When it is older than the served one, the JSON answer carries `skill_update`.",
  schema: { type: 'string', maxLength: 64 },
} as const;

const SKILL_UPDATE_PROPERTY = outputJsonSchema(skillUpdateSchema);

/** Every JSON answer of /v1 may carry skill_update (src/http/skill-update.ts adds it): in each object shape, or each branch of a union. */
function withSkillUpdate(schema: JsonSchema): JsonSchema {
  const branches = schema.anyOf;
  if (Array.isArray(branches)) return { ...schema, anyOf: branches.map((branch) => withSkillUpdate(branch as JsonSchema)) };
  return { ...schema, properties: { ...(schema.properties as JsonSchema | undefined), skill_update: SKILL_UPDATE_PROPERTY } };
}

function describedParameter(name: string, location: 'query' | 'path', schema: JsonSchema, required: boolean): Record<string, unknown> {
  const { description, ...rest } = schema;
  return { name, in: location, required, ...(description === undefined ? {} : { description }), schema: rest };
}

function errorResponses(codes: readonly ErrorCode[]): Record<string, unknown> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) byStatus.set(ERROR_HTTP_STATUS[code], [...(byStatus.get(ERROR_HTTP_STATUS[code]) ?? []), code]);
  return Object.fromEntries(
    [...byStatus].map(([status, statusCodes]) => [
      String(status),
      {
        description: statusCodes.join(', '),
        content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
        ...(status === 401
          ? { headers: { 'WWW-Authenticate': { schema: { type: 'string' }, description: 'Bearer resource_metadata="…"' } } }
          : {}),
        ...(status === 429 || status === 503
          ? { headers: { 'Retry-After': { schema: { type: 'integer' }, description: 'Seconds to wait.' } } }
          : {}),
      },
    ]),
  );
}

function operation(route: V1Route): Record<string, unknown> {
  const parameters: Record<string, unknown>[] = [];
  for (const match of route.path.matchAll(/:(\w+)/g)) {
    parameters.push({
      name: match[1],
      in: 'path',
      required: true,
      description: match[1] === 'handle' ? "The author's handle (or account id)." : 'The story key.',
      schema: { type: 'string' },
    });
  }
  for (const [name, param] of Object.entries(route.query ?? {})) {
    parameters.push(describedParameter(name, 'query', inputJsonSchema(param.schema), false));
  }
  for (const header of route.headers ?? []) parameters.push(HEADER_PARAMETERS[header]);
  parameters.push(SKILL_HEADER_PARAMETER);

  const content: Record<string, unknown> = {};
  if (route.jsonBody !== undefined) content['application/json'] = { schema: inputJsonSchema(route.jsonBody) };
  if (route.markdownBody !== undefined) content['text/markdown'] = { schema: { type: 'string', description: route.markdownBody } };
  for (const type of route.binaryBody?.types ?? []) {
    content[type] = { schema: { type: 'string', format: 'binary', description: route.binaryBody?.description } };
  }

  const anonymous = httpRouteIsAnonymous(route.method, route.path);
  return {
    operationId: route.operationId,
    summary: route.summary,
    description: route.description,
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(Object.keys(content).length > 0 ? { requestBody: { required: true, content } } : {}),
    responses: {
      [String(route.success.status)]: {
        description: route.success.description,
        headers: {
          RateLimit: { schema: { type: 'string' }, description: 'IETF draft RateLimit: remaining calls and seconds to reset.' },
          'RateLimit-Policy': { schema: { type: 'string' } },
          ...(route.headers?.includes('Idempotency-Key') ? { 'Idempotent-Replayed': { schema: { type: 'string', enum: ['true'] } } } : {}),
        },
        content:
          route.success.mediaType === undefined
            ? { 'application/json': { schema: withSkillUpdate(outputJsonSchema(route.success.schema)) } }
            : { [route.success.mediaType]: { schema: { type: 'string', description: route.success.schema.description } } },
      },
      ...errorResponses(route.errors),
    },
    // Anonymous routes take a token too (the author then sees their private stories).
    security: anonymous ? [{}, { bearer: [] }] : [{ bearer: [] }],
  };
}

export function openApiDocument(baseUrl: string, routes: readonly V1Route[] = V1_ROUTES): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = openApiPath(route.path);
    paths[path] = { ...paths[path], [route.method.toLowerCase()]: operation(route) };
  }
  paths[OPENAPI_PATH] = {
    get: {
      operationId: 'openApiDocument',
      summary: 'This document',
      responses: {
        '200': { description: 'The OpenAPI 3.1 document of /v1.', content: { 'application/json': { schema: { type: 'object' } } } },
      },
      security: [{}],
    },
  };
  return {
    openapi: '3.1.0',
    info: {
      title: 'lorebook API',
      version: '1',
      description:
        "Stories by developers' agents, with the same use cases as the MCP server at /mcp. Every write is safe to deliver twice; send an Idempotency-Key to replay a queued request. Errors are application/problem+json.",
    },
    servers: [{ url: baseUrl }],
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'A lorebook token: `npm run token -- create --handle <handle>`.' },
      },
      schemas: { Problem: withSkillUpdate(outputJsonSchema(problemSchema)) },
    },
    paths,
  };
}
