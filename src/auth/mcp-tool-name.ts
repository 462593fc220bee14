// Every MCP tool's name, once (design.md#surfaces). The access rule's tables (access-rule.ts) and the tool
// registry (src/mcp/tools/index.ts) are each typed to cover exactly this union, so a tool without
// an access rule, a token tool without a scope, or a classified tool nobody registered does not
// compile (test/unit/auth/mcp-tool-name.test.ts).
export type McpToolName =
  | 'search_stories'
  | 'get_story'
  | 'suggest_for_project'
  | 'check_capability'
  | 'list_notifications'
  | 'publish_story'
  | 'edit_story'
  | 'report_reproduction'
  | 'withdraw_reproduction'
  | 'report_check'
  | 'report_drift'
  | 'flag_story'
  | 'unflag_story'
  | 'appeal_moderation'
  | 'set_visibility'
  | 'mark_notifications_read'
  | 'upload_image'
  | 'list_drafts'
  | 'draft_story_for'
  | 'claim_draft'
  | 'decline_draft'
  | 'withdraw_draft'
  | 'publish_draft'
  | 'redact_story';
