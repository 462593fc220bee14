// Which redirect URIs a client may register (OAuth 2.1 §2.3.1, RFC 8252 §7.3, §8.4): https
// anywhere, http only on a loopback IP literal (any port), private-use schemes for native apps;
// never a fragment. At the authorization step the URI is compared exactly, character for
// character, with a registered one — no prefix or port leniency.

export function redirectUriProblem(raw: string): string | undefined {
  if (!URL.canParse(raw)) return 'is not an absolute URI';
  const url = new URL(raw);
  if (url.hash !== '' || raw.includes('#')) return 'must not contain a fragment (#)';
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:') {
    return ['127.0.0.1', '[::1]', 'localhost'].includes(url.hostname)
      ? undefined
      : 'uses http on a host that is not loopback (use https, or http://127.0.0.1:<port>/…)';
  }
  // RFC 8252 §7.1: a private-use scheme is reverse-DNS, e.g. com.example.app:/callback.
  if (/^[a-z][a-z0-9+.-]*\.[a-z0-9+.-]+:$/.test(url.protocol)) return undefined;
  return `uses the scheme ${url.protocol} (use https, http on loopback, or a reverse-DNS private-use scheme)`;
}

export const isRegisteredRedirect = (registered: readonly string[], requested: string): boolean => registered.includes(requested);
