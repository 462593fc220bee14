// What one setting is: an environment variable with a type, a default and the commands it
// matters to. The table of them is settings-table.ts; their documentation is settings-docs.ts.

/** Where a setting is read: the commands whose `--help` lists it, and the Lambda functions. */
export type Surface = 'start' | 'sweep' | 'token' | 'bsky:publish-feed' | 'lambda';

export interface Setting {
  readonly name: string;
  /** What the value must be, in words (the docs' Type column). */
  readonly type: string;
  /** The value used when the variable is unset or empty; absent: unset means what its line in settings-docs.ts says. */
  readonly default?: number | string;
  readonly surfaces: readonly Surface[];
  /**
   * Changed at run time (design.md#settings): read from the table's settings items (`npm run settings`),
   * with this variable as the default; every other setting is fixed at deploy time.
   */
  readonly runtime?: true;
}
