// Named tools and places in prose (and in inline code that is not a command), only where the name
// alone says what happens: `sudo`, a private key or credentials file, "curl … | sh". A command
// named in a sentence ("then rm the folder") is not read: prose is not a script. Startup files and
// schedulers are not read either: "list the crontab" and "add a line to the crontab" name the same
// thing and only one of them writes.
import type { Hit } from './finding.ts';
import { isSecretPath } from './path-rules.ts';

const RULES: ReadonlyArray<{ test: (text: string) => boolean; hit: Hit }> = [
  {
    test: (text) => /\b(?:curl|wget)\b[^\n]{0,120}\|\s*(?:sudo\s+)?(?:ba|z|da|k)?sh\b/.test(text),
    hit: { category: 'remote_execution', rule: 'download-piped-to-shell' },
  },
  { test: (text) => text.split(/\s+/).some(isSecretPath), hit: { category: 'secrets', rule: 'names-credentials' } },
  { test: (text) => /\b(?:sudo|doas)\b/.test(text), hit: { category: 'privilege', rule: 'names-sudo' } },
];

export function proseHits(text: string): Hit[] {
  return RULES.filter(({ test }) => test(text)).map(({ hit }) => hit);
}
