// A tiny browser stand-in over node:http: it sends the Sec-Fetch-* headers a browser sends (the
// PDS's sign-in API insists on them, and Node's fetch overrides them), keeps cookies per origin
// (accepting `Secure` cookies over http, as the local PDS sets them), and never follows redirects.
import { request } from 'node:http';

export interface HttpAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** The Location header resolved against the request URL, when there is one. */
  location?: string;
}

/** Cookies by origin, name -> value. Share one between calls to act as one browser. */
export class CookieJar {
  private readonly byOrigin = new Map<string, Map<string, string>>();

  header(url: string): string | undefined {
    const cookies = this.byOrigin.get(new URL(url).origin);
    if (cookies === undefined || cookies.size === 0) return undefined;
    return [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  /** Another browser holding the same cookies (the same person's second request, in parallel). */
  copy(): CookieJar {
    const twin = new CookieJar();
    for (const [origin, cookies] of this.byOrigin) for (const [name, value] of cookies) twin.set(origin, name, value);
    return twin;
  }

  get(url: string, name: string): string | undefined {
    return this.byOrigin.get(new URL(url).origin)?.get(name);
  }

  set(url: string, name: string, value: string): void {
    const origin = new URL(url).origin;
    const cookies = this.byOrigin.get(origin) ?? new Map<string, string>();
    cookies.set(name, value);
    this.byOrigin.set(origin, cookies);
  }

  store(url: string, setCookie: string | string[] | undefined): void {
    for (const line of setCookie === undefined ? [] : Array.isArray(setCookie) ? setCookie : [setCookie]) {
      const [pair = '', ...attributes] = line.split(';');
      const at = pair.indexOf('=');
      if (at <= 0) continue;
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a)) || value === '';
      if (expired) this.byOrigin.get(new URL(url).origin)?.delete(name);
      else this.set(url, name, value);
    }
  }
}

const TIMEOUT_MS = 10_000;

export function send(
  method: string,
  url: string,
  options: { jar?: CookieJar; headers?: Record<string, string>; body?: string } = {},
): Promise<HttpAnswer> {
  const target = new URL(url);
  const cookie = options.jar?.header(url);
  const headers: Record<string, string> = {
    ...(cookie === undefined ? {} : { cookie }),
    ...(options.body === undefined ? {} : { 'content-length': String(Buffer.byteLength(options.body)) }),
    ...options.headers,
  };
  return new Promise((resolve, reject) => {
    const req = request(target, { method, headers, timeout: TIMEOUT_MS }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        options.jar?.store(url, res.headers['set-cookie']);
        const location = res.headers.location;
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          ...(location === undefined ? {} : { location: new URL(location, url).href }),
        });
      });
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`${method} ${url} took longer than ${TIMEOUT_MS} ms`)));
    req.on('error', reject);
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}
