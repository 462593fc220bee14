// The optional custom domain (-c domainName=… -c certificateArn=…): a CloudFront distribution in
// front of the http function's URL, caching nothing, sending the origin secret in
// x-lorebook-origin-secret so the function believes CloudFront-Viewer-Address from it alone
// (handlers/client-address.ts), and optionally a WAF web ACL with one rate-based rule
// (-c wafRateLimit=N requests per 5 minutes per address). Checked at synth: a bad key fails
// `cdk synth`, not the deploy.
import { SecretValue, Stack, Token } from 'aws-cdk-lib';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import { AllowedMethods, CachePolicy, Distribution, OriginRequestPolicy, ViewerProtocolPolicy } from 'aws-cdk-lib/aws-cloudfront';
import { FunctionUrlOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import type { IFunctionUrl } from 'aws-cdk-lib/aws-lambda';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { CfnWebACL } from 'aws-cdk-lib/aws-wafv2';
import type { Construct } from 'constructs';
import { ORIGIN_SECRET_HEADER } from '../handlers/client-address.ts';

export interface CustomDomain {
  /** The public host name, e.g. lorebook.example.com (a CNAME to the distribution). */
  domainName: string;
  /** An ACM certificate for it, in us-east-1 (CloudFront takes certificates from there only). */
  certificateArn: string;
  /** Requests per 5 minutes one address may make before WAF blocks it; unset = no WAF. */
  wafRateLimit?: number;
  /** The origin secret's version CloudFront sends (after a rotation, docs/operations.md); unset = the current one at deploy. */
  originSecretVersionId?: string;
}

/** WAF's bounds for a rate-based rule's limit (per 5-minute window). */
export const WAF_RATE_LIMIT = { min: 10, max: 2_000_000_000 } as const;

const HOST_NAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
const US_EAST_1_CERTIFICATE = /^arn:aws[a-z-]*:acm:us-east-1:\d{12}:certificate\/[0-9a-f-]+$/;

/** Refuses at synth what CloudFront or WAF would refuse at deploy. */
export function checkCustomDomain(scope: Construct, domain: CustomDomain): void {
  if (!HOST_NAME.test(domain.domainName))
    throw new Error(`domainName must be a host name like lorebook.example.com, got "${domain.domainName}"`);
  if (!US_EAST_1_CERTIFICATE.test(domain.certificateArn))
    throw new Error(
      `certificateArn must be an ACM certificate in us-east-1 (CloudFront takes its certificates from there only), got "${domain.certificateArn}"`,
    );
  const limit = domain.wafRateLimit;
  if (limit === undefined) return;
  if (!Number.isInteger(limit) || limit < WAF_RATE_LIMIT.min || limit > WAF_RATE_LIMIT.max)
    throw new Error(
      `wafRateLimit must be a whole number of requests per 5 minutes from ${WAF_RATE_LIMIT.min} to ${WAF_RATE_LIMIT.max}, got ${String(limit)}`,
    );
  const region = Stack.of(scope).region;
  if (region !== 'us-east-1')
    throw new Error(
      `wafRateLimit needs the stack in us-east-1: a CloudFront web ACL can only be created there, and this stack's region is ${Token.isUnresolved(region) ? "not set (run cdk with AWS_REGION=us-east-1 and your account's credentials)" : `"${region}"`}. Deploy the stack to us-east-1, or leave wafRateLimit unset`,
    );
}

export function createDistribution(scope: Construct, url: IFunctionUrl, originSecret: ISecret, domain: CustomDomain): Distribution {
  checkCustomDomain(scope, domain);
  const header = SecretValue.secretsManager(originSecret.secretArn, {
    ...(domain.originSecretVersionId === undefined ? {} : { versionId: domain.originSecretVersionId }),
  });
  return new Distribution(scope, 'Distribution', {
    comment: `lorebook: ${domain.domainName} in front of the http function`,
    domainNames: [domain.domainName],
    certificate: Certificate.fromCertificateArn(scope, 'DomainCertificate', domain.certificateArn),
    defaultBehavior: {
      origin: new FunctionUrlOrigin(url, { customHeaders: { [ORIGIN_SECRET_HEADER]: header.unsafeUnwrap() } }),
      viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
      allowedMethods: AllowedMethods.ALLOW_ALL,
      // Every answer is per caller (tokens, sessions, rate limits): nothing is cached at the edge.
      cachePolicy: CachePolicy.CACHING_DISABLED,
      // Every viewer header but Host (the Function URL answers to its own host), and CloudFront-Viewer-Address.
      originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
    },
    ...(domain.wafRateLimit === undefined ? {} : { webAclId: rateLimitAcl(scope, domain.wafRateLimit).attrArn }),
  });
}

function rateLimitAcl(scope: Construct, limit: number): CfnWebACL {
  const visibility = (metricName: string) => ({ cloudWatchMetricsEnabled: true, sampledRequestsEnabled: true, metricName });
  return new CfnWebACL(scope, 'RateLimitAcl', {
    scope: 'CLOUDFRONT',
    defaultAction: { allow: {} },
    visibilityConfig: visibility('lorebook-acl'),
    rules: [
      {
        name: 'rate-per-address',
        priority: 0,
        action: { block: {} },
        statement: { rateBasedStatement: { limit, aggregateKeyType: 'IP', evaluationWindowSec: 300 } },
        visibilityConfig: visibility('lorebook-rate-per-address'),
      },
    ],
  });
}
