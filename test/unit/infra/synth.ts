// Synthesizes the real stack for assertions. Bundling is skipped (the `aws:cdk:bundling-stacks`
// context set to none) unless a test asks for it: the template is the same, only the asset
// differs, and one test bundles for real.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { type LorebookSettings, LorebookStack } from '../../../infra/lorebook-stack.ts';

export interface Synthesized {
  template: Template;
  json: TemplateJson;
  /** The cloud assembly directory (assets are here when bundled). */
  outdir: string;
}

export interface Resource {
  Type: string;
  Properties: Record<string, unknown>;
  DeletionPolicy?: string;
}

export interface TemplateJson {
  Resources: Record<string, Resource>;
  Outputs?: Record<string, unknown>;
}

export function synthesize(settings: Partial<LorebookSettings> = {}, options: { bundle?: boolean; region?: string } = {}): Synthesized {
  const outdir = mkdtempSync(join(tmpdir(), 'lorebook-cdk-'));
  const app = new App({ outdir, context: options.bundle ? {} : { 'aws:cdk:bundling-stacks': [] } });
  const env = options.region === undefined ? {} : { env: { account: '123456789012', region: options.region } };
  const stack = new LorebookStack(app, 'Lorebook', { blueskyService: 'https://bsky.social', ...settings }, env);
  const template = Template.fromStack(stack);
  return { template, json: template.toJSON() as TemplateJson, outdir };
}

export function resourcesOf(json: TemplateJson, type: string): [string, Resource][] {
  return Object.entries(json.Resources).filter(([, resource]) => resource.Type === type);
}

/** The logical id of the one resource of `type` whose id starts with `prefix`. */
export function logicalId(json: TemplateJson, type: string, prefix: string): string {
  const found = resourcesOf(json, type).filter(([id]) => id.startsWith(prefix));
  if (found.length !== 1) throw new Error(`expected one ${type} named ${prefix}*, found ${found.map(([id]) => id).join(', ') || 'none'}`);
  return (found[0] as [string, Resource])[0];
}

export interface Statement {
  Effect: string;
  Action: string | string[];
  Resource: unknown;
}

/** Every statement of the policies attached to the function's role. */
export function roleStatements(json: TemplateJson, functionId: string): Statement[] {
  const role = (json.Resources[functionId]?.Properties.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
  return resourcesOf(json, 'AWS::IAM::Policy')
    .filter(([, policy]) => (policy.Properties.Roles as { Ref: string }[]).some((ref) => ref.Ref === role))
    .flatMap(([, policy]) => (policy.Properties.PolicyDocument as { Statement: Statement[] }).Statement);
}

export const actionsOf = (statement: Statement): string[] => (Array.isArray(statement.Action) ? statement.Action : [statement.Action]);
