// How a handler is bundled, in one place: the CDK stack hands it to NodejsFunction (esbuild run
// locally, never Docker), then builds it again split into chunks (splitBundleHooks), and `npm run
// bench:coldstart` builds the same split bundles with esbuild's API to measure them.
import { type BundlingOptions, type ICommandHooks, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { BuildOptions } from 'esbuild';

/**
 * ESM output needs `require` for the CommonJS packages it pulls in (esbuild otherwise leaves a
 * __require that throws "Dynamic require of … is not supported" at run time).
 */
export const REQUIRE_SHIM =
  "import { createRequire as __lorebookCreateRequire } from 'node:module'; const require = __lorebookCreateRequire(import.meta.url);";

/** esbuild settings shared by the stack and the benchmark. */
export const ESBUILD_SETTINGS = {
  target: 'node22',
  format: 'esm',
  platform: 'node',
  minify: true,
  sourcemap: true,
  sourcesContent: false,
  mainFields: ['module', 'main'],
  banner: REQUIRE_SHIM,
  /**
   * Only native modules are external: the AWS SDK is bundled at the version the tests ran
   * against, rather than whatever the nodejs22.x runtime ships that month. sharp loads a
   * platform binary (a `.node` file and libvips), which esbuild cannot bundle: it is installed
   * beside the bundle instead (nativeModulesBundling).
   */
  external: ['sharp'] as string[],
} as const;

/**
 * The functions run on Graviton (infra/handler-function.ts: arm64, Amazon Linux 2023, glibc).
 * npm picks a package's platform binaries by these (npm_config_os / _cpu / _libc), so the `npm ci`
 * NodejsFunction runs for `nodeModules` installs sharp's linux-arm64 glibc binaries from the
 * registry on any build machine — no Docker, nothing but the registry, the versions from
 * package-lock.json.
 */
export const LAMBDA_PLATFORM = { npm_config_os: 'linux', npm_config_cpu: 'arm64', npm_config_libc: 'glibc' } as const;

export const BUNDLING: BundlingOptions = {
  forceDockerBundling: false,
  format: OutputFormat.ESM,
  target: ESBUILD_SETTINGS.target,
  minify: ESBUILD_SETTINGS.minify,
  sourceMap: ESBUILD_SETTINGS.sourcemap,
  sourcesContent: ESBUILD_SETTINGS.sourcesContent,
  mainFields: [...ESBUILD_SETTINGS.mainFields],
  banner: ESBUILD_SETTINGS.banner,
  externalModules: ESBUILD_SETTINGS.external,
};

/** The bundling of a function that needs native modules: they are installed, for the Lambda platform, beside its bundle. */
export function nativeModulesBundling(modules: readonly string[]): BundlingOptions {
  return { ...BUNDLING, nodeModules: [...modules], environment: { ...LAMBDA_PLATFORM } };
}

/** The lazily imported modules' chunks, in one folder beside index.mjs. */
export const CHUNK_NAMES = 'chunks/[name]-[hash]';

/**
 * One handler's build as esbuild's API takes it: ESBUILD_SETTINGS with code splitting, so every
 * dynamic import() (the sign-in client, the markdown renderer, the feed writer, the badge
 * renderer, the SSRF-safe fetch) becomes a chunk that only the request needing it reads and
 * evaluates; a cold start pays for index.mjs and the chunks it imports statically. esbuild splits
 * only into an outdir; the entry stays index.mjs, which the Lambda handler `index.handler` names.
 */
export function splitBuildOptions(entry: string, outdir: string): BuildOptions {
  return {
    entryPoints: { index: entry },
    outdir,
    bundle: true,
    splitting: true,
    chunkNames: CHUNK_NAMES,
    outExtension: { '.js': '.mjs' },
    logLevel: 'error',
    target: ESBUILD_SETTINGS.target,
    format: ESBUILD_SETTINGS.format,
    platform: ESBUILD_SETTINGS.platform,
    minify: ESBUILD_SETTINGS.minify,
    sourcemap: ESBUILD_SETTINGS.sourcemap,
    sourcesContent: ESBUILD_SETTINGS.sourcesContent,
    mainFields: [...ESBUILD_SETTINGS.mainFields],
    banner: { js: ESBUILD_SETTINGS.banner },
    external: [...ESBUILD_SETTINGS.external],
  };
}

const SPLIT_BUNDLE_SCRIPT = new URL('./split-bundle.ts', import.meta.url).pathname;

/**
 * NodejsFunction runs esbuild with --outfile, which cannot split; after its bundling (and after it
 * installs any external node modules) this hook builds the handler again, split, over its
 * index.mjs (infra/split-bundle.ts), with the Node that runs the synth.
 */
export function splitBundleHooks(entry: string): ICommandHooks {
  return {
    beforeBundling: () => [],
    beforeInstall: () => [],
    afterBundling: (_inputDir, outputDir) => [`"${process.execPath}" "${SPLIT_BUNDLE_SCRIPT}" "${entry}" "${outputDir}"`],
  };
}
