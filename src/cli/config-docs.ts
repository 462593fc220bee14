// `npm run docs:config`: writes docs/config.md from the settings table (src/settings/).
import { writeFileSync } from 'node:fs';
import { configDocs } from '../settings/config-docs.ts';

const path = new URL('../../docs/config.md', import.meta.url);
writeFileSync(path, configDocs());
process.stdout.write(`wrote ${path.pathname}\n`);
