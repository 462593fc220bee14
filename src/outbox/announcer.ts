// What announces: the social network behind its port, the settings, and where log lines go.
import type { AnnouncePort } from './announce-port.ts';
import type { AnnounceSettings } from './announce-settings.ts';

export interface Announcer {
  port: AnnouncePort;
  settings: AnnounceSettings;
  log(line: string): void;
}
