// Every call to the PDS opens a connection of its own (`connection: close`), so no attempt ever
// reuses a pooled keep-alive socket. After an outage a pooled socket may be dead without the
// client knowing (a load balancer or proxy that lost its state answers nothing on it): a call on
// it hangs until its deadline although a new connection would be answered at once. Announcing
// makes a few calls per story, so the extra handshakes cost nothing that matters.
export function freshConnectionFetch(base: typeof fetch = globalThis.fetch): typeof fetch {
  return (input, init) => {
    const request = new Request(input, init);
    request.headers.set('connection', 'close');
    return base(request);
  };
}
