// The environment of a lorebook command a test starts (npm start, a CLI): this process's, without
// its LOREBOOK_* and BLUESKY_* settings, which must not leak into the child; the test adds the
// ones it means.
export function withoutLorebookSettings(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env))
    if (!name.startsWith('LOREBOOK_') && !name.startsWith('BLUESKY_')) env[name] = value;
  return env;
}
