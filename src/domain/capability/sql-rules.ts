// SQL statements, in an `sql` block or handed to a database client from the shell.
import type { Hit } from './finding.ts';

/** Dropping or emptying a table, or deleting every row (a DELETE without a WHERE). */
const DESTRUCTIVE =
  /\b(?:DROP\s+(?:TABLE|DATABASE|SCHEMA|VIEW|INDEX|USER|ROLE)|TRUNCATE(?:\s+TABLE)?\s+[\w."`]|DELETE\s+FROM\s+[\w."`]+\s*(?:;|$))/im;
const CHANGES = /\b(?:INSERT|UPDATE|DELETE|CREATE|ALTER|GRANT|REVOKE|REPLACE|MERGE|UPSERT)\b/i;

/** Comments are text, not statements. */
function withoutComments(sql: string): string {
  return sql.replace(/--[^\n]*/g, '').replace(/\/\*[\s\S]*?\*\//g, '');
}

export function sqlHits(sql: string): Hit[] {
  const statements = withoutComments(sql);
  if (DESTRUCTIVE.test(statements)) return [{ category: 'destructive', rule: 'drops-or-empties-table' }];
  if (CHANGES.test(statements)) return [{ category: 'file_write', rule: 'changes-database' }];
  return [];
}
