// `npm run docs:api`: writes docs/reference.md from the MCP tools and /v1 routes (src/docs/).
import { writeFileSync } from 'node:fs';
import { apiReference } from '../docs/api-reference.ts';

const path = new URL('../../docs/reference.md', import.meta.url);
writeFileSync(path, apiReference());
process.stdout.write(`wrote ${path.pathname}\n`);
