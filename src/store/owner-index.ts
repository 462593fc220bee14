// The owner index (docs/design.md §20): items an account owns that live under someone else's
// partition — its reports on other people's stories, the images it uploaded — carry GSI2 keys
// under a partition of their own (`REPORTER#<account>`, `UPLOADER#<account>`), beside GSI2's
// `AUTHOR#<account>` story list. Without them these items are only findable by a Scan; with them
// an export (and an account deletion) Queries them page by page. Set when the item is written;
// items written before this carry none (docs/design.md §20 says how to add them).
import { INDEXES } from './schema.ts';

export const reporterPartition = (account: string): string => `REPORTER#${account}`;
export const uploaderPartition = (account: string): string => `UPLOADER#${account}`;

/** The GSI2 keys that put an item in its owner's partition of the index. */
export function ownerIndexFields(partition: string, sort: string): Record<string, string> {
  return { [INDEXES.author.partition]: partition, [INDEXES.author.sort]: sort };
}
