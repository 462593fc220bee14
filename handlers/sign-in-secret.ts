// Sign in with Bluesky on Lambda. Production mode signs its requests to people's PDSs with a
// private key (private_key_jwt); on AWS that key lives in Secrets Manager, never in the
// function's environment (readable by anyone with lambda:GetFunctionConfiguration). It is read
// with the Bluesky app password's reader (handlers/bluesky-secret.ts), so the caching is the same:
// a key is read once per cold start, a failed read is retried on the next invocation, and the
// stack's placeholder — sign-in off — is believed for `recheckMs` only, so putting the key into
// the secret after deploying turns sign-in on within minutes, without a redeploy.
import { readSignInConfig, SIGN_IN_ENV, type SignInConfig } from '../src/auth/sign-in-config.ts';
import { defaultSecretsClient, type SecretReader, secretReader, UNSET_APP_PASSWORD } from './bluesky-secret.ts';
import { type HandlerDeps, LAMBDA_ENV } from './lambda-runtime.ts';

/** The value the stack creates the key's secret with: the one placeholder text the reader knows. */
export const UNSET_SIGN_IN_KEY = UNSET_APP_PASSWORD;

/** Sign-in as decided for one key (or none): the settings, or why it is off. */
export type LambdaSignIn = { signIn: SignInConfig; offHint?: undefined } | { signIn: undefined; offHint: string };

/** The key's reader, or undefined when the function names no key secret (then sign-in has no key). */
export function signInKeyReader(env: NodeJS.ProcessEnv, deps: HandlerDeps): SecretReader | undefined {
  const secretId = env[LAMBDA_ENV.signInKeySecretId];
  if (!secretId) return undefined;
  return secretReader(deps.secrets ?? defaultSecretsClient(), secretId, deps.secretRecheckMs);
}

/**
 * Sign-in for the key the secret holds (undefined: no secret, or its placeholder). Never throws:
 * a bad key or setting turns sign-in off with the reason in the log, and the rest of the site
 * (the API, MCP, pages) keeps answering.
 */
export function lambdaSignIn(env: NodeJS.ProcessEnv, baseUrl: string, key: string | undefined): LambdaSignIn {
  const secretId = env[LAMBDA_ENV.signInKeySecretId];
  // The key comes from the secret or not at all: a copy in the environment is ignored.
  const { [SIGN_IN_ENV.privateKey]: _ignored, ...rest } = env;
  if (env[SIGN_IN_ENV.mode] === 'production' && key === undefined) {
    return {
      signIn: undefined,
      offHint: secretId
        ? `the secret ${secretId} still holds its placeholder; put the private key in it (docs/deploy.md, "Turn on Sign in with Bluesky")`
        : `${SIGN_IN_ENV.mode}=production but ${LAMBDA_ENV.signInKeySecretId} names no secret holding the private key (docs/deploy.md)`,
    };
  }
  try {
    const signIn = readSignInConfig(key === undefined ? rest : { ...rest, [SIGN_IN_ENV.privateKey]: key }, baseUrl);
    if (signIn !== undefined) return { signIn };
    return {
      signIn: undefined,
      offHint: `deploy with -c blueskyOAuthClient=production and put the private key in the stack's SignInPrivateKey secret (docs/deploy.md)`,
    };
  } catch (error) {
    const from = secretId ? `; the key is read from the secret ${secretId}` : '';
    return { signIn: undefined, offHint: `${(error as Error).message}${from}` };
  }
}
