// GET /v1/badge/s/{slug}.svg, /v1/badge/a/{handle}.svg and /v1/badge/capability/{sha12}.svg: SVG
// badges to embed in a README. A story or author that cannot be shown is the one neutral "not
// found" badge, answered 200 like any other, because image proxies (GitHub's among them) drop a
// non-2xx image and a README would show a broken image instead.
import { z } from 'zod';
import { authorBadgeWorked, storyBadgeFacts } from '../../app/queries/badge-facts.ts';
import { capabilityBadgeRecord } from '../../app/queries/capability-badge-facts.ts';
import { MAX_LIST_LIMIT } from '../../app/queries/list-stories.contract.ts';
import { authorBadge, capabilityBadge, NOT_FOUND_BADGE, storyBadge } from '../../domain/badge.ts';
import { badgeAnswer } from './badge-answer.ts';
import { defineRoute, SVG_FILE } from './route.ts';

const svgSchema = z.string().describe('An SVG image (image/svg+xml), rendered by badge-maker; ETag is a hash of its bytes.');
const ANSWERS =
  'Query parameters are ignored (a README may add a cache buster). Anonymous, under the anonymous rate limit; Cache-Control: public, max-age=300; a strong ETag of the SVG, and If-None-Match with it answers 304 with no body.';

/** The file name without `.svg`: the route pattern only matches names that end so. */
const fileStem = (file: string | undefined): string => (file ?? '').replace(/\.svg$/, '');

export const storyBadgeRoute = defineRoute({
  method: 'GET',
  path: `/v1/badge/s/:slug${SVG_FILE}`,
  operationId: 'getStoryBadge',
  summary: 'A story badge: reproduced N×, coloured by its capability tier',
  description: `"reproduced N× · T2": N is the counted worked reproductions; the colour and T2 are the tier of its check and reproduce steps (grey and no tier when not scanned). A private, hidden or unknown story, or a slug that does not parse, is a grey "not found" badge, status 200. ${ANSWERS}`,
  success: { status: 200, mediaType: 'image/svg+xml', description: 'The badge.', schema: svgSchema },
  errors: ['rate_limited', 'store_unavailable'],
  async handle(c, _caller, { ctx }) {
    const facts = await storyBadgeFacts(ctx, fileStem(c.req.param('slug')));
    return badgeAnswer(c, facts === undefined ? NOT_FOUND_BADGE : storyBadge(facts));
  },
});

export const authorBadgeRoute = defineRoute({
  method: 'GET',
  path: `/v1/badge/a/:handle${SVG_FILE}`,
  operationId: 'getAuthorBadge',
  summary: 'An author badge: worked for N people',
  description: `"worked for N people": the counted worked reproductions of the author's newest ${MAX_LIST_LIMIT} public stories, as /a/{handle} counts them. An unknown handle is a grey "not found" badge, status 200. ${ANSWERS}`,
  success: { status: 200, mediaType: 'image/svg+xml', description: 'The badge.', schema: svgSchema },
  errors: ['rate_limited', 'store_unavailable'],
  async handle(c, _caller, { ctx }) {
    const worked = await authorBadgeWorked(ctx, fileStem(c.req.param('handle')));
    return badgeAnswer(c, worked === undefined ? NOT_FOUND_BADGE : authorBadge(worked));
  },
});

export const capabilityBadgeRoute = defineRoute({
  method: 'GET',
  path: `/v1/badge/capability/:sha12${SVG_FILE}`,
  operationId: 'getCapabilityBadge',
  summary: 'A capability badge: the tier of a scanned text, by its hash',
  description: `"capability · T2": the tier of the check and reproduce steps whose sha256 (capability.sha256 in get_story, check_capability's sha256) starts with {sha12}, 12 hex digits (or more, up to all 64), under the newest scanner version that scanned that text. Texts of publicly listed stories are recorded when they are published, edited or re-scanned. An unknown or malformed hash, a text only private or hidden stories hold, or 12 digits shared by two different texts (send more digits) is a grey "not found" badge, status 200. ${ANSWERS}`,
  success: { status: 200, mediaType: 'image/svg+xml', description: 'The badge.', schema: svgSchema },
  errors: ['rate_limited', 'store_unavailable'],
  async handle(c, _caller, { ctx }) {
    const record = await capabilityBadgeRecord(ctx, fileStem(c.req.param('sha12')));
    return badgeAnswer(c, record === undefined ? NOT_FOUND_BADGE : capabilityBadge(record.tier));
  },
});
