// The stack's side of Sign in with Bluesky and the feed generator on AWS: the key's own secret
// (created with the placeholder), the http function's env naming it and the feed record, and
// least privilege — GetSecretValue on exactly that secret, for the http function only, and only
// when sign-in is on.
import { describe, expect, it } from 'vitest';
import { UNSET_SIGN_IN_KEY } from '../../../../handlers/sign-in-secret.ts';
import { actionsOf, logicalId, resourcesOf, roleStatements, synthesize, type TemplateJson } from '../synth.ts';

const FUNCTION = 'AWS::Lambda::Function';
const SECRET = 'AWS::SecretsManager::Secret';
const FEED_DID = 'did:plc:lorebookfeedpublisher';

const envOf = (json: TemplateJson, prefix: string): Record<string, unknown> =>
  (json.Resources[logicalId(json, FUNCTION, prefix)]?.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
const secretStatements = (json: TemplateJson, prefix: string) =>
  roleStatements(json, logicalId(json, FUNCTION, prefix)).filter((statement) =>
    actionsOf(statement).some((action) => action.startsWith('secretsmanager:')),
  );

describe("the sign-in key's secret", () => {
  const { json, template } = synthesize();
  const keyId = logicalId(json, SECRET, 'SignInPrivateKey');

  it('is created with the placeholder the http function treats as "sign-in off", beside the app password\'s', () => {
    expect(resourcesOf(json, SECRET)).toHaveLength(2);
    expect(json.Resources[keyId]?.Properties.SecretString).toBe(UNSET_SIGN_IN_KEY);
    template.hasOutput('SignInKeySecretArn', { Value: { Ref: keyId } });
  });

  it('without blueskyOAuthClient the http function may read no secret and its env names none', () => {
    expect(secretStatements(json, 'Http')).toEqual([]);
    expect(Object.keys(envOf(json, 'Http')).filter((name) => name.includes('SECRET') || name.includes('OAUTH'))).toEqual([]);
  });
});

describe('with blueskyOAuthClient=production and a feed publisher', () => {
  const { json } = synthesize({
    blueskyIdentifier: 'lorebook.example.com',
    blueskyOAuthClient: 'production',
    feedPublisherDid: FEED_DID,
    feedRkey: 'stories',
    feedTags: 'rust,aws-lambda',
  });
  const keyId = logicalId(json, SECRET, 'SignInPrivateKey');
  const passwordId = logicalId(json, SECRET, 'BlueskyAppPassword');

  it("the http function is told production mode, the key secret's ARN (never the key) and the feed record", () => {
    const env = envOf(json, 'Http');
    expect(env).toMatchObject({
      LOREBOOK_BLUESKY_OAUTH_CLIENT: 'production',
      LOREBOOK_SIGN_IN_KEY_SECRET_ID: { Ref: keyId },
      BLUESKY_FEED_PUBLISHER_DID: FEED_DID,
      BLUESKY_FEED_RKEY: 'stories',
      LOREBOOK_FEED_TAGS: 'rust,aws-lambda',
    });
    expect(env.LOREBOOK_OAUTH_PRIVATE_KEY).toBeUndefined();
  });

  it('the http role may GetSecretValue on exactly the key secret, nothing else of Secrets Manager', () => {
    expect(secretStatements(json, 'Http')).toEqual([
      { Effect: 'Allow', Action: 'secretsmanager:GetSecretValue', Resource: { Ref: keyId } },
    ]);
  });

  it('stream and sweeper neither read the key nor know the sign-in or feed settings; they keep the app password only', () => {
    for (const prefix of ['Stream', 'Sweeper']) {
      expect(
        secretStatements(json, prefix).map((statement) => statement.Resource),
        prefix,
      ).toEqual([{ Ref: passwordId }]);
      const names = Object.keys(envOf(json, prefix));
      expect(
        names.filter((name) => name.startsWith('BLUESKY_FEED') || name.startsWith('LOREBOOK_SIGN_IN') || name.includes('OAUTH')),
        prefix,
      ).toEqual([]);
    }
  });
});

describe('settings the http function would refuse at its cold start are refused at synth', () => {
  it('a feed publisher that is not a DID', () => {
    expect(() => synthesize({ feedPublisherDid: 'lorebook.example.com' })).toThrow(/BLUESKY_FEED_PUBLISHER_DID must be a DID/);
  });

  it('a feed rkey that is not a short record key', () => {
    expect(() => synthesize({ feedRkey: 'not a record key' })).toThrow(/BLUESKY_FEED_RKEY must be 1-15/);
  });

  it('feed tags that are not story tags', () => {
    expect(() => synthesize({ feedTags: 'Not A Tag' })).toThrow(/LOREBOOK_FEED_TAGS holds "Not A Tag"/);
  });

  it('an OAuth client mode other than production', () => {
    expect(() => synthesize({ blueskyOAuthClient: 'loopback' as 'production' })).toThrow(/blueskyOAuthClient must be "production"/);
  });

  it('production sign-in behind a plain-http base URL', () => {
    expect(() => synthesize({ blueskyOAuthClient: 'production', baseUrl: 'http://lorebook.example.com' })).toThrow(
      /needs an https baseUrl/,
    );
  });
});
