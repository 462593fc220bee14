// How a handler is bundled, in one place: the CDK stack hands it to NodejsFunction (esbuild run
// locally, never Docker) and `npm run bench:coldstart` builds the same bundles with esbuild's API
// to measure them.
import { OutputFormat, type BundlingOptions } from 'aws-cdk-lib/aws-lambda-nodejs';

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
