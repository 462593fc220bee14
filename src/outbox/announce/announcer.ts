// What announces: the social network behind its port, the settings, where log lines go, and —
// when set — the standard.site documents written after each post (docs/design.md#standard-site).

import type { DocumentPort, PublicationContent } from '../document-port.ts';
import type { AnnouncePort } from './port.ts';
import type { AnnounceSettings } from './settings.ts';

export interface AnnounceDocuments {
  port: DocumentPort;
  /** The publication the documents belong to (its url is the site's base URL). */
  publication: PublicationContent;
}

export interface Announcer {
  port: AnnouncePort;
  settings: AnnounceSettings;
  log(line: string): void;
  /** Each listed story's standard.site document, kept in line with the story after its post. */
  documents?: AnnounceDocuments;
}
