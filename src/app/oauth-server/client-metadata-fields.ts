// The client metadata lorebook reads (RFC 7591 §2), one definition for both ways a client names
// itself: a registration and a Client ID Metadata Document. Unknown metadata (client_uri,
// logo_uri, scope, software_id…) is ignored by the loose objects built from these fields.
import { z } from 'zod';
import { refuseForbiddenChars } from '../../domain/text-controls.ts';

export const SUPPORTED_GRANT_TYPES: readonly string[] = ['authorization_code', 'refresh_token'];

export const CLIENT_METADATA_FIELDS = {
  redirect_uris: z
    .array(z.string().max(2000).superRefine(refuseForbiddenChars('single-line')))
    .min(1)
    .max(10),
  client_name: z.string().trim().min(1).max(100).superRefine(refuseForbiddenChars('single-line')).optional(),
  token_endpoint_auth_method: z.string().optional(),
  grant_types: z.array(z.string()).optional(),
  response_types: z.array(z.string()).optional(),
};
