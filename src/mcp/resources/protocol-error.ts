// A refusal on a method that is not a tool call (resources/read, prompts/get, completion/complete)
// has no isError result to travel in: it is a JSON-RPC error, whose `data` is the typed error body
// (code, message, retryable, retry_after_ms), so a client still reads what went wrong and whether
// to retry. Not found and bad input are -32602 (resource-not-found is -32602 with `data.uri` in
// 2026-07-28, and the SDK sends -32602 for it in every era; `data.code` tells the two apart),
// anything else -32603 with its body (a store_unavailable says retryable: true).
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { type ErrorBody, isLorebookError } from '../../domain/errors.ts';

function jsonRpcCodeOf(body: ErrorBody): number {
  if (body.code === 'not_found' || body.code === 'validation_failed' || body.code === 'payload_too_large')
    return ProtocolErrorCode.InvalidParams;
  return ProtocolErrorCode.InternalError;
}

/**
 * `notFound` is added to the data of a not-found refusal only: resources/read names the `uri` it
 * could not find there, as the spec asks of resource-not-found (SEP-2164), beside the typed body.
 */
export function protocolError(body: ErrorBody, notFound: Record<string, unknown> = {}): ProtocolError {
  return new ProtocolError(jsonRpcCodeOf(body), body.message, body.code === 'not_found' ? { ...body, ...notFound } : body);
}

/** Runs `answer`, turning a LorebookError into its protocol error; anything else stays a bug. */
export async function answeredOrRefused<T>(answer: () => Promise<T>, notFound: Record<string, unknown> = {}): Promise<T> {
  try {
    return await answer();
  } catch (error) {
    if (isLorebookError(error)) throw protocolError(error.toBody(), notFound);
    throw error;
  }
}
