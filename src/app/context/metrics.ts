// The application's counters (docs/metrics.md): a port every use case and surface records through,
// so what a request did is counted the same way on Lambda (EMF lines that CloudWatch turns into
// metrics) and under `npm start` (one log line a minute). Absent from the context: nothing counted.
import type { ErrorCode } from '../../domain/errors.ts';

export type CounterName = 'Requests' | 'Refusals' | 'Publishes' | 'Reports' | 'AnnounceAttempts' | 'AnnounceFailures' | 'ModerationActions';

/** Values read at a moment, not added up: the announce queue's oldest overdue entry, in seconds. */
export type GaugeName = 'OutboxAgeSeconds';

export type Dimensions = Readonly<Record<string, string>>;

export interface MetricsSink {
  /** Adds one to `name` under these dimensions. Never throws, never waits. */
  count(name: CounterName, dimensions?: Dimensions): void;
  gauge(name: GaugeName, value: number): void;
}

/**
 * Dimensions a counter is also published without, so an alarm can read its total: the 5xx rate
 * is 5xx answers over all answers, whatever the surface.
 */
export const ROLLUPS: Partial<Record<CounterName, readonly string[]>> = { Requests: ['StatusClass'] };

/** Where a request came in: the dashboard splits requests by it. */
export type Surface = 'mcp' | 'v1' | 'auth' | 'xrpc' | 'pages';

/** What an operator or the flag threshold did to a story or an account; other moderation code calls recordModeration with its own kind. */
export type ModerationKind = 'flag' | 'unflag' | 'quarantine' | 'restore' | 'ban' | 'unban' | 'approve';

/** The context, or any part of it that carries the sink (AppContext.metrics). */
type WithMetrics = { readonly metrics?: MetricsSink | undefined };

export const countRequest = (ctx: WithMetrics, surface: Surface, status: number): void =>
  ctx.metrics?.count('Requests', { Surface: surface, StatusClass: `${Math.floor(status / 100)}xx` });

export const countRefusal = (ctx: WithMetrics, code: ErrorCode): void => ctx.metrics?.count('Refusals', { Code: code });

/** A write counted once: a replay (same op_id, or an identical repeat that answers `replayed`) did nothing new. */
export function countWrite<R extends { replayed?: true }>(ctx: WithMetrics, name: 'Publishes' | 'Reports', outcome: R): R {
  if (outcome.replayed !== true) ctx.metrics?.count(name);
  return outcome;
}

export const recordModeration = (ctx: WithMetrics, kind: ModerationKind): void => ctx.metrics?.count('ModerationActions', { Kind: kind });

/** An announcement claimed and tried (`attempt`), or one that failed and will be retried or was given up (`failure`). */
export const countAnnounce = (ctx: WithMetrics, what: 'attempt' | 'failure'): void =>
  ctx.metrics?.count(what === 'attempt' ? 'AnnounceAttempts' : 'AnnounceFailures');
