// DNS-rebinding protection (MCP transport security): the Host must be this server's, and a
// browser's Origin must be one we know. A page on another site that gets its name resolved to
// 127.0.0.1 sends its own Host and Origin, and is refused before anything runs.
import { LorebookError } from '../domain/errors.ts';

export interface GuardConfig {
  baseUrl: string;
  allowedOrigins: readonly string[];
  /** Extra accepted Host values (host[:port]). */
  allowedHosts?: readonly string[];
}

export interface RequestGuard {
  /** Throws `forbidden` when the Host or Origin is foreign. */
  check(host: string | undefined, origin: string | undefined): void;
  /** Origins a browser may call from (CORS). */
  readonly webOrigins: ReadonlySet<string>;
}

export function createRequestGuard(config: GuardConfig): RequestGuard {
  const base = new URL(config.baseUrl);
  const port = base.port || (base.protocol === 'https:' ? '443' : '80');
  const loopback = [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`];
  const hosts = new Set([base.host, ...loopback, ...(config.allowedHosts ?? [])].map((host) => host.toLowerCase()));
  // This server's own pages and the loopback names of its port are same-site, not foreign.
  const selfOrigins = [base.origin, ...loopback.map((host) => `${base.protocol}//${host}`)];
  const origins = new Set([...selfOrigins, ...config.allowedOrigins].map((origin) => origin.toLowerCase()));

  return {
    check(host, origin) {
      if (host === undefined || !hosts.has(host.toLowerCase())) {
        throw new LorebookError(
          'forbidden',
          `This server does not answer for the host "${host ?? ''}". Call it by its own address (${base.host}).`,
          {
            details: { reason: 'host' },
          },
        );
      }
      if (origin !== undefined && !origins.has(origin.toLowerCase())) {
        throw new LorebookError(
          'forbidden',
          `Requests from the web origin "${origin}" are not allowed. The server's operator can allow it with LOREBOOK_ALLOWED_ORIGINS.`,
          { details: { reason: 'origin' } },
        );
      }
    },
    webOrigins: new Set(config.allowedOrigins),
  };
}
