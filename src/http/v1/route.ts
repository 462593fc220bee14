// A /v1 endpoint declared in one place: method and path, what it accepts (body, query, headers),
// what it answers, and its handler. The same declarations mount the routes (with the access rule
// and rate limit in front) and generate the OpenAPI document, so the document lists every route.
import type { Context, Hono } from 'hono';
import type { z } from 'zod';
import type { Caller } from '../../app/context/app-context.ts';
import { searchAs } from '../../app/search/search-as.ts';
import type { StorySearch } from '../../app/search/story-search.ts';
import { httpRouteAdmitsDeletingAccount, httpRouteIsAnonymous } from '../../auth/access-rule.ts';
import type { ErrorCode } from '../../domain/errors.ts';
import { type AdmissionDeps, admitAlongside } from '../admission.ts';
import { withCpuCaller } from '../cpu-caller.ts';
import type { HttpEnv } from '../http-env.ts';

/** Where the OpenAPI document of these routes is served (./openapi.ts builds it). */
export const OPENAPI_PATH = '/v1/openapi.json';

export interface V1Deps extends AdmissionDeps {
  search: StorySearch;
}

export type QueryKind = 'string' | 'integer' | 'boolean';

export interface QueryParam {
  /** The use-case input field it fills. */
  field: string;
  kind: QueryKind;
  /** The described use-case field (its description and constraints go into the document). */
  schema: z.ZodType;
}

export interface V1Route {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** A hono pattern: `/v1/stories/:slug`. */
  path: string;
  operationId: string;
  summary: string;
  description: string;
  /** The JSON body, when the route takes one. */
  jsonBody?: z.ZodType;
  /** What a text/markdown body is, when the route takes one. */
  markdownBody?: string;
  /** A body of raw bytes in one of these media types (an image upload). */
  binaryBody?: { types: readonly string[]; description: string };
  query?: Record<string, QueryParam>;
  /**
   * `Idempotency-Key` (= op_id) on writes; `If-Match` (= base_revision) on content writes;
   * worklore's `X-Revision-*` (= kind, note, source) on edits.
   */
  headers?: ReadonlyArray<'Idempotency-Key' | 'If-Match' | 'X-Revision-Kind' | 'X-Revision-Note' | 'X-Revision-Source'>;
  /** `mediaType` when the answer is not JSON (a badge's SVG). */
  success: { status: 200 | 201 | 202; description: string; schema: z.ZodType; mediaType?: 'image/svg+xml' };
  errors: readonly ErrorCode[];
  handle(c: Context<HttpEnv>, caller: Caller | undefined, deps: V1Deps): Promise<Response>;
}

/**
 * Appended to a path parameter, it matches only a file name ending in `.svg` (`:slug${SVG_FILE}`
 * is `{slug}.svg`); the parameter keeps the suffix, for the handler to strip.
 */
export const SVG_FILE = '{.+\\.svg}';

/** A hono pattern as an OpenAPI path: `:slug` is `{slug}`, and `:slug${SVG_FILE}` is `{slug}.svg`. */
export function openApiPath(path: string): string {
  return path.replaceAll(SVG_FILE, '.svg').replace(/:(\w+)/g, '{$1}');
}

export function defineRoute(route: V1Route): V1Route {
  return route;
}

/**
 * The same endpoint under a second path (worklore's names for lorebook's routes): the same
 * handler, so the same use case, op record and Idempotency-Key; listed in OpenAPI as its own
 * operation that says which route it aliases.
 */
export function aliasRoute(route: V1Route, alias: { path: string; operationId: string; origin: string }): V1Route {
  const canonical = openApiPath(route.path);
  return {
    ...route,
    path: alias.path,
    operationId: alias.operationId,
    summary: `${route.summary}: alias of ${route.method} ${canonical}`,
    description: `${alias.origin} ${route.method} ${canonical} under another name: the same use case, op record and Idempotency-Key, so one change whichever path carries it. ${route.description}`,
  };
}

export function mountRoutes(app: Hono<HttpEnv>, routes: readonly V1Route[], deps: V1Deps): void {
  for (const route of routes) {
    const anonymous = httpRouteIsAnonymous(route.method, route.path);
    const whileDeleting = httpRouteAdmitsDeletingAccount(route.method, route.path);
    app.on(route.method, route.path, async (c) => {
      const admitted = await admitAlongside(c, deps, anonymous, undefined, whileDeleting);
      const ctx = withCpuCaller(admitted.ctx, c, deps.clientAddress, admitted.caller);
      return admitted.answer(() =>
        route.handle(c, admitted.caller, { ...deps, ctx, search: searchAs(deps.search, ctx.cpuCaller, c.req.raw.signal) }),
      );
    });
  }
}
