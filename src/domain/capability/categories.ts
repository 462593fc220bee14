// What a story's steps can do to the machine that runs them, and how hard a reader should look
// before running them (docs/capability.md). A tier is a disclosure, not a verdict: a deploy story
// is honestly T3, and T0 means only that nothing in the scanned text was recognised.

export const TIERS = ['T0', 'T1', 'T2', 'T3', 'T4'] as const;
export type Tier = (typeof TIERS)[number];

export const CATEGORY_TIERS = {
  /** Fetches code and runs it: what runs is not in the text a reader reviewed. */
  remote_execution: 'T4',
  /** Decodes hidden text and runs it, or hides characters from the reader. */
  obfuscation: 'T4',
  /** Survives the session: cron, services, login scripts, git hooks, authorised keys. */
  persistence: 'T3',
  /** Reads or prints credentials: keys, cloud credentials, token variables, keychains. */
  secrets: 'T3',
  /** Deletes or overwrites what a rebuild cannot bring back. */
  destructive: 'T3',
  /** Runs as another user (root), or grants such rights. */
  privilege: 'T3',
  /** Sends local files, command output or secrets to another host. */
  exfiltration: 'T3',
  /**
   * Text addressed to the agent reading the story: overriding its instructions, hiding from its
   * user, asking it to send credentials away. T3, not T4: the reader can see it; hidden from the
   * rendered page (an HTML comment, a link title) it is also obfuscation, which is T4.
   */
  agent_directive: 'T3',
  /**
   * Changes what an agent does in its later sessions: skills, MCP servers, hooks, its instruction
   * files (CLAUDE.md, AGENTS.md). T3 like persistence: it outlives the session and steers the agent.
   */
  agent_config: 'T3',
  /** Talks to the network: downloads, package installs, clones, remote calls. */
  network: 'T2',
  /** Runs programs, scripts, tests or builds on this machine. */
  local_execution: 'T1',
  /** Creates, changes or deletes local files. */
  file_write: 'T1',
} as const satisfies Record<string, Tier>;

export type Category = keyof typeof CATEGORY_TIERS;

export function tierRank(tier: Tier): number {
  return TIERS.indexOf(tier);
}

/** The highest of the tiers given; T0 for none. */
export function highestTier(tiers: Iterable<Tier>): Tier {
  let highest: Tier = 'T0';
  for (const tier of tiers) if (tierRank(tier) > tierRank(highest)) highest = tier;
  return highest;
}
