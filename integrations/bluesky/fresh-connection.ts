// Every call to the PDS opens a connection of its own (`connection: close`), so no attempt ever
// reuses a pooled keep-alive socket. After an outage a pooled socket may be dead without the
// client knowing (a load balancer or proxy that lost its state answers nothing on it): a call on
// it hangs until its deadline although a new connection would be answered at once. Announcing
// makes a few calls per story, so the extra handshakes cost nothing that matters.
//
// The header rides on the init, never on a Request built here: a Request follows its signal only
// through a weak reference, so one standing between the deadline and fetch can be collected while
// the call hangs, and the deadline's abort then reaches nothing (the call outlived its timeout in CI).
export function freshConnectionFetch(base: typeof fetch = globalThis.fetch): typeof fetch {
  return (input, init) => {
    const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
    headers.set('connection', 'close');
    return base(input, { ...init, headers });
  };
}
