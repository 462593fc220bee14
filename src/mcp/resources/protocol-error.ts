// A refusal on a method that is not a tool call (resources/read, prompts/get, completion/complete)
// has no isError result to travel in: it is a JSON-RPC error, whose `data` is the typed error body
// (code, message, retryable, retry_after_ms), so a client still reads what went wrong and whether
// to retry. Not found is the spec's -32002 (resource not found), bad input -32602, anything else
// -32603 with its body (a store_unavailable says retryable: true).
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { isLorebookError, type ErrorBody } from '../../domain/errors.ts';

export const RESOURCE_NOT_FOUND = -32002;

function jsonRpcCodeOf(body: ErrorBody): number {
  if (body.code === 'not_found') return RESOURCE_NOT_FOUND;
  if (body.code === 'validation_failed' || body.code === 'payload_too_large') return ProtocolErrorCode.InvalidParams;
  return ProtocolErrorCode.InternalError;
}

export function protocolError(body: ErrorBody): ProtocolError {
  return new ProtocolError(jsonRpcCodeOf(body), body.message, body);
}

/** Runs `answer`, turning a LorebookError into its protocol error; anything else stays a bug. */
export async function answeredOrRefused<T>(answer: () => Promise<T>): Promise<T> {
  try {
    return await answer();
  } catch (error) {
    if (isLorebookError(error)) throw protocolError(error.toBody());
    throw error;
  }
}
