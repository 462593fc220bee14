// Story text as an agent reads it over MCP: between markers holding a nonce drawn for this one
// answer (src/domain/untrusted-text.ts, design.md#untrusted-text), so the agent sees where the author's text
// starts and ends, and the text cannot forge the end.
import { randomBytes } from 'node:crypto';
import { markedStoryText, storyTextMarkers } from '../domain/untrusted-text.ts';

/** 64 random bits: a stored story cannot guess the marker of an answer not yet given. */
export const markerNonce = (): string => randomBytes(8).toString('hex');

/** The markdown between its markers, and the markers' nonce, for one answer. */
export function markedStory(markdown: string, handle: string, nonce = markerNonce()): { text: string; nonce: string; end: string } {
  return { text: markedStoryText(markdown, handle, nonce), nonce, end: storyTextMarkers(handle, nonce).end };
}
