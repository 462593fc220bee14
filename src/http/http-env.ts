// What the request context carries between the edge middleware and the handlers.
import type { Caller } from '../app/context/app-context.ts';

export interface HttpEnv {
  Variables: {
    /** The JSON-RPC id of the message on /mcp, for an error answered before the transport. */
    rpcId: unknown;
    /** Headers every answer to this request carries (the rate limit), success or refusal. */
    answerHeaders: Record<string, string>;
    caller: Caller | undefined;
  };
}
