// Handles an admin types for local accounts. Shaped like atproto handles (DNS-name labels) so a
// local handle can never be something a Bluesky handle could not be; `alice` is fine locally.
import { z } from 'zod';

const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
const HANDLE_SHAPE = new RegExp(`^${LABEL}(?:\\.${LABEL})*$`);
const MAX_HANDLE_LENGTH = 253;

/** Lowercases and drops a leading `@`, then requires letters, digits, `-` and `.`-separated labels. */
export const handleSchema = z
  .string()
  .trim()
  .transform((raw) => raw.replace(/^@/, '').toLowerCase())
  .pipe(
    z
      .string()
      .min(1, 'a handle is required, e.g. "alice" or "alice.example.com"')
      .max(MAX_HANDLE_LENGTH, `a handle has at most ${MAX_HANDLE_LENGTH} characters`)
      .regex(HANDLE_SHAPE, 'use letters, digits and "-", in "."-separated parts, e.g. "alice" or "alice.example.com"'),
  )
  .describe('The handle of a local account, e.g. "alice" (created on first use).');
