// Named tools and places in prose (and in inline code that is not a command), only where the name
// alone says what happens: `crontab`, `sudo`, `~/.ssh/id_rsa`, `~/.bashrc`, "curl … | sh". A
// command named in a sentence ("then rm the folder") is not read: prose is not a script.
import type { Hit } from './finding.ts';
import { isPersistencePath, isSecretPath } from './path-rules.ts';

const RULES: ReadonlyArray<{ test: (text: string) => boolean; hit: Hit }> = [
  {
    test: (text) => /\b(?:curl|wget)\b[^\n]{0,120}\|\s*(?:sudo\s+)?(?:ba|z|da|k)?sh\b/.test(text),
    hit: { category: 'remote_execution', rule: 'download-piped-to-shell' },
  },
  {
    test: (text) => /\bcrontab\b|\bLaunch(?:Agents|Daemons)\b|\bsystemctl\s+enable\b/.test(text),
    hit: { category: 'persistence', rule: 'names-startup-mechanism' },
  },
  { test: (text) => text.split(/\s+/).some(isPersistencePath), hit: { category: 'persistence', rule: 'names-startup-file' } },
  { test: (text) => text.split(/\s+/).some(isSecretPath), hit: { category: 'secrets', rule: 'names-credentials' } },
  { test: (text) => /\b(?:sudo|doas)\b/.test(text), hit: { category: 'privilege', rule: 'names-sudo' } },
];

export function proseHits(text: string): Hit[] {
  return RULES.filter(({ test }) => test(text)).map(({ hit }) => hit);
}
