// `npm start`: the local main job on the embedded default store. Starts DynamoDB Local with a
// persistent data directory, creates the table if it is missing, and keeps running until Ctrl-C,
// then stops DynamoDB Local by its PID. (The MCP/HTTP server joins this command in the surfaces
// issue; until then this is the store the use cases and tests run against.)
import { startDynamoDbLocal } from '../../integrations/dynamodb-local/index.ts';
import { readConfig } from '../config.ts';
import { buildContext } from '../context.ts';
import { ensureTable } from '../store/bootstrap.ts';

const log = (line: string): void => void process.stdout.write(`${line}\n`);

if (process.argv.includes('--help') || process.argv.includes('-h')) {
  log(`usage: npm start

Starts lorebook locally on the embedded DynamoDB (DynamoDB Local, needs Java 17+).
Environment:
  LOREBOOK_DATA_DIR   where the data is kept between runs (default .data/dynamodb)
  LOREBOOK_TABLE      table name (default lorebook)
  JAVA                the java binary (default: java on PATH)
Stop with Ctrl-C.`);
  process.exit(0);
}

const config = readConfig();
log(`lorebook: starting DynamoDB Local with data in ${config.dataDir}`);
const ddb = await startDynamoDbLocal({ dataDir: config.dataDir, log });
const ctx = buildContext(config, ddb.endpoint);
await ensureTable(ctx.store.client, config.tableName);
log(`lorebook: table "${config.tableName}" ready at ${ddb.endpoint} (DynamoDB Local pid ${ddb.pid}). Ctrl-C stops it.`);

let stopping = false;
async function stop(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  log(`lorebook: ${signal} received, stopping DynamoDB Local (pid ${ddb.pid})`);
  ctx.store.client.destroy();
  await ddb.stop();
  log('lorebook: stopped');
  process.exit(0);
}
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
