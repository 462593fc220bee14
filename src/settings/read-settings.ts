// The one place that reads process.env: the table's variables and no others, so a variable the
// table does not document cannot change what lorebook does.
import { SETTINGS } from './settings-table.ts';

/** The table's variables as they are set: undefined for unset ones. */
export function readSettings(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const values: NodeJS.ProcessEnv = {};
  for (const { name } of SETTINGS) if (env[name] !== undefined) values[name] = env[name];
  return values;
}
