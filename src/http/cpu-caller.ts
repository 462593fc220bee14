// Whose share of the CPU-heavy slots a call takes (docs/design.md#fair-cpu): the subject its rate limit
// counts, the account when signed in, else the client address.
import type { Context } from 'hono';
import type { AppContext, Caller } from '../app/context/app-context.ts';
import { accountRateSubject, ipRateSubject } from '../app/context/rate-limit.ts';
import type { ClientAddress } from './admission.ts';
import type { HttpEnv } from './http-env.ts';

export function cpuCallerOf(c: Context<HttpEnv>, clientAddress: ClientAddress, caller: Caller | undefined): string {
  return caller === undefined ? ipRateSubject(clientAddress(c) ?? 'unknown') : accountRateSubject(caller.account);
}

/** The call's context with its CPU share named. */
export function withCpuCaller(ctx: AppContext, c: Context<HttpEnv>, clientAddress: ClientAddress, caller: Caller | undefined): AppContext {
  return { ...ctx, cpuCaller: cpuCallerOf(c, clientAddress, caller) };
}
