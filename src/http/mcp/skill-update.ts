// skill_update on /mcp: a JSON-RPC result to a request whose X-Lorebook-Skill names an older skill
// carries `_meta["dev.lorebook/skill_update"]: {version, url}`. `_meta` is where MCP lets a server
// add to any result without touching its shape: structuredContent still matches the tool's
// outputSchema (SDK clients validate it), and tools/list, resources and prompts results keep
// their schemas. The key is prefixed as the spec asks of implementation-defined `_meta` keys.
// Errors carry nothing: a refusal's `data` is the typed error body, and stays exactly that.
import type { SkillUpdate } from '../skill-update.ts';

export const SKILL_UPDATE_META_KEY = 'dev.lorebook/skill_update';

export async function withSkillUpdate(response: Response, update: SkillUpdate | undefined): Promise<Response> {
  if (update === undefined || response.status !== 200 || !(response.headers.get('content-type') ?? '').startsWith('application/json'))
    return response;
  // The transport answers one JSON-RPC response (batches are refused before it), built by this server.
  const message = (await response.json()) as { result?: Record<string, unknown> };
  if (typeof message.result === 'object' && message.result !== null) {
    const meta = (message.result._meta ?? {}) as Record<string, unknown>;
    message.result._meta = { ...meta, [SKILL_UPDATE_META_KEY]: update };
  }
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  return new Response(JSON.stringify(message), { status: response.status, headers });
}
