// The optional custom domain in the synthesized template (infra/distribution.ts): a CloudFront
// distribution for -c domainName with -c certificateArn, sending the origin secret from Secrets
// Manager in x-lorebook-origin-secret, which the http function alone may read; an optional WAF
// rate-based rule (-c wafRateLimit, us-east-1 only); none of it without the keys; bad keys
// refused at synth, by the stack and by the CDK app (infra/app.ts) as `cdk synth` runs it.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CustomDomain } from '../../../../infra/distribution.ts';
import { actionsOf, logicalId, resourcesOf, roleStatements, synthesize, type TemplateJson } from '../synth.ts';

const DOMAIN = 'lorebook.example.com';
const CERTIFICATE = 'arn:aws:acm:us-east-1:123456789012:certificate/0f1e2d3c-aaaa-bbbb-cccc-001122334455';
const custom = (more: Partial<CustomDomain> = {}): { customDomain: CustomDomain } => ({
  customDomain: { domainName: DOMAIN, certificateArn: CERTIFICATE, ...more },
});

const distributionConfig = (json: TemplateJson): Record<string, unknown> => {
  const [only, ...more] = resourcesOf(json, 'AWS::CloudFront::Distribution');
  expect(more).toHaveLength(0);
  return (only?.[1].Properties as { DistributionConfig: Record<string, unknown> }).DistributionConfig;
};
const variables = (json: TemplateJson, id: string): Record<string, unknown> =>
  (json.Resources[logicalId(json, 'AWS::Lambda::Function', id)]?.Properties.Environment as { Variables: Record<string, unknown> })
    .Variables;
const canReadSecret = (json: TemplateJson, functionId: string, secretId: string): boolean =>
  roleStatements(json, logicalId(json, 'AWS::Lambda::Function', functionId)).some(
    (statement) => actionsOf(statement).includes('secretsmanager:GetSecretValue') && JSON.stringify(statement.Resource).includes(secretId),
  );

describe('without -c domainName and -c certificateArn', () => {
  const { json } = synthesize({});

  it('has no distribution, no web ACL, no origin secret, and the http function reads no origin secret', () => {
    expect(resourcesOf(json, 'AWS::CloudFront::Distribution')).toHaveLength(0);
    expect(resourcesOf(json, 'AWS::WAFv2::WebACL')).toHaveLength(0);
    expect(resourcesOf(json, 'AWS::SecretsManager::Secret').filter(([id]) => id.startsWith('OriginSecret'))).toHaveLength(0);
    expect(variables(json, 'Http')).not.toHaveProperty('LOREBOOK_ORIGIN_SECRET_ID');
    expect(Object.keys(json.Outputs ?? {}).filter((key) => key.startsWith('Distribution') || key === 'OriginSecretArn')).toEqual([]);
  });
});

describe('with -c domainName and -c certificateArn', () => {
  const { json } = synthesize(custom());
  const secret = logicalId(json, 'AWS::SecretsManager::Secret', 'OriginSecret');
  const config = distributionConfig(json);
  const origin = (config.Origins as Record<string, unknown>[])[0] as Record<string, unknown>;

  it('serves the domain with the given us-east-1 certificate over SNI, https only', () => {
    expect(config.Aliases).toEqual([DOMAIN]);
    expect(config.ViewerCertificate).toMatchObject({ AcmCertificateArn: CERTIFICATE, SslSupportMethod: 'sni-only' });
    expect(config.DefaultCacheBehavior).toMatchObject({ ViewerProtocolPolicy: 'redirect-to-https' });
    expect(origin.CustomOriginConfig).toMatchObject({ OriginProtocolPolicy: 'https-only' });
  });

  it('sends the origin secret as x-lorebook-origin-secret, resolved from Secrets Manager at deploy (never in the template)', () => {
    expect(origin.OriginCustomHeaders).toEqual([
      {
        HeaderName: 'x-lorebook-origin-secret',
        HeaderValue: { 'Fn::Join': ['', ['{{resolve:secretsmanager:', { Ref: secret }, ':SecretString:::}}']] },
      },
    ]);
    const generated = json.Resources[secret]?.Properties;
    expect(generated).toHaveProperty('GenerateSecretString');
    expect(generated).not.toHaveProperty('SecretString');
  });

  it('forwards every method and every viewer header but Host (so CloudFront-Viewer-Address), and caches nothing', () => {
    expect(config.DefaultCacheBehavior).toMatchObject({
      AllowedMethods: ['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE'],
      // The managed policies CachingDisabled and AllViewerExceptHostHeader.
      CachePolicyId: '4135ea2d-6df8-44a3-9df3-4b5a84be39ad',
      OriginRequestPolicyId: 'b689b0a8-53d0-40ab-baf2-68738e2966ac',
    });
  });

  it('tells the http function the secret (its ARN) and lets it alone read it; the base URL is the domain', () => {
    expect(variables(json, 'Http')).toMatchObject({ LOREBOOK_ORIGIN_SECRET_ID: { Ref: secret }, LOREBOOK_BASE_URL: `https://${DOMAIN}` });
    expect(canReadSecret(json, 'Http', secret)).toBe(true);
    expect(canReadSecret(json, 'Stream', secret)).toBe(false);
    expect(canReadSecret(json, 'Sweeper', secret)).toBe(false);
    expect(variables(json, 'Sweeper')).toMatchObject({ LOREBOOK_BASE_URL: `https://${DOMAIN}` });
  });

  it('has no web ACL without -c wafRateLimit, and outputs the distribution to point the DNS at', () => {
    expect(resourcesOf(json, 'AWS::WAFv2::WebACL')).toHaveLength(0);
    expect(config).not.toHaveProperty('WebACLId');
    expect(Object.keys(json.Outputs ?? {})).toEqual(
      expect.arrayContaining(['DistributionDomainName', 'DistributionId', 'OriginSecretArn']),
    );
  });

  it('-c originSecretVersionId pins the version CloudFront sends (the rotation runbook)', () => {
    const pinned = distributionConfig(synthesize(custom({ originSecretVersionId: 'a1b2c3d4-0000-1111-2222-333344445555' })).json);
    expect(JSON.stringify((pinned.Origins as Record<string, unknown>[])[0]?.OriginCustomHeaders)).toContain(
      ':SecretString:::a1b2c3d4-0000-1111-2222-333344445555}}',
    );
  });

  it('an explicit -c baseUrl wins over the domain', () => {
    const { json: other } = synthesize({ ...custom(), baseUrl: 'https://stories.example.org' });
    expect(variables(other, 'Http')).toMatchObject({ LOREBOOK_BASE_URL: 'https://stories.example.org' });
  });
});

describe('-c wafRateLimit', () => {
  it('in us-east-1: a CloudFront web ACL whose one rule blocks an address past the limit per 5 minutes, attached to the distribution', () => {
    const { json } = synthesize(custom({ wafRateLimit: 500 }), { region: 'us-east-1' });
    const [acl, ...more] = resourcesOf(json, 'AWS::WAFv2::WebACL');
    expect(more).toHaveLength(0);
    const [aclId, resource] = acl as [string, { Properties: Record<string, unknown> }];
    expect(resource.Properties).toMatchObject({ Scope: 'CLOUDFRONT', DefaultAction: { Allow: {} } });
    expect(resource.Properties.Rules).toMatchObject([
      { Action: { Block: {} }, Statement: { RateBasedStatement: { Limit: 500, AggregateKeyType: 'IP', EvaluationWindowSec: 300 } } },
    ]);
    expect(distributionConfig(json).WebACLId).toEqual({ 'Fn::GetAtt': [aclId, 'Arn'] });
  });

  it('outside us-east-1, or with no region set, is refused at synth with the reason', () => {
    expect(() => synthesize(custom({ wafRateLimit: 500 }), { region: 'eu-west-1' })).toThrow(
      'wafRateLimit needs the stack in us-east-1: a CloudFront web ACL can only be created there, and this stack\'s region is "eu-west-1"',
    );
    expect(() => synthesize(custom({ wafRateLimit: 500 }))).toThrow("this stack's region is not set");
  });

  it('below WAF minimum, fractional or above its maximum, is refused', () => {
    for (const limit of [9, 2.5, 3_000_000_000, Number.NaN])
      expect(() => synthesize(custom({ wafRateLimit: limit }), { region: 'us-east-1' }), String(limit)).toThrow('wafRateLimit must be');
  });
});

describe('bad keys are refused at synth', () => {
  it('a domain that is not a host name, a certificate outside us-east-1 or not an ACM ARN', () => {
    for (const domainName of ['https://lorebook.example.com', 'lorebook', 'a b.example.com'])
      expect(() => synthesize({ customDomain: { domainName, certificateArn: CERTIFICATE } }), domainName).toThrow(
        'domainName must be a host name',
      );
    for (const certificateArn of [CERTIFICATE.replace('us-east-1', 'eu-west-1'), 'arn:aws:iam::123456789012:server-certificate/x'])
      expect(() => synthesize({ customDomain: { domainName: DOMAIN, certificateArn } }), certificateArn).toThrow(
        'certificateArn must be an ACM certificate in us-east-1',
      );
  });

  /** infra/app.ts as `cdk synth -c …` runs it (the CLI passes context in CDK_CONTEXT_JSON); bundling skipped. */
  const app = (context: Record<string, string>, region?: string): { status: number; stderr: string; outdir: string } => {
    const outdir = mkdtempSync(join(tmpdir(), 'lorebook-cdk-app-'));
    const env = {
      ...process.env,
      CDK_OUTDIR: outdir,
      CDK_CONTEXT_JSON: JSON.stringify({ ...context, 'aws:cdk:bundling-stacks': [] }),
      ...(region === undefined ? {} : { CDK_DEFAULT_ACCOUNT: '123456789012', CDK_DEFAULT_REGION: region }),
    };
    try {
      execFileSync(process.execPath, ['infra/app.ts'], { env, encoding: 'utf8', stdio: 'pipe', timeout: 120_000 });
      return { status: 0, stderr: '', outdir };
    } catch (error) {
      const failed = error as { status: number; stderr: string };
      return { status: failed.status, stderr: failed.stderr, outdir };
    }
  };

  it('by the CDK app: a domain without its certificate or the other way round, and WAF or a secret version without a domain', () => {
    expect(app({ domainName: DOMAIN }).stderr).toContain('-c domainName needs -c certificateArn');
    expect(app({ certificateArn: CERTIFICATE }).stderr).toContain('-c domainName needs -c certificateArn');
    expect(app({ wafRateLimit: '500' }).stderr).toContain('-c wafRateLimit and -c originSecretVersionId need a custom domain');
    expect(app({ originSecretVersionId: 'v1' }).stderr).toContain('-c wafRateLimit and -c originSecretVersionId need a custom domain');
    expect(app({ domainName: DOMAIN, certificateArn: CERTIFICATE, wafRateLimit: 'many' }, 'us-east-1').stderr).toContain(
      'wafRateLimit must be a whole number',
    );
  }, 180_000);

  it('and the CDK app turns the keys into the distribution and the rule', () => {
    const run = app({ domainName: DOMAIN, certificateArn: CERTIFICATE, wafRateLimit: '800' }, 'us-east-1');
    expect(run.stderr).toBe('');
    const template = JSON.parse(readFileSync(join(run.outdir, 'Lorebook.template.json'), 'utf8')) as TemplateJson;
    expect(distributionConfig(template).Aliases).toEqual([DOMAIN]);
    expect(resourcesOf(template, 'AWS::WAFv2::WebACL')[0]?.[1].Properties.Rules).toMatchObject([
      { Statement: { RateBasedStatement: { Limit: 800 } } },
    ]);
  }, 180_000);
});
