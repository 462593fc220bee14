// The fixture table (test/fixtures/capability): each category has stories that hit it and
// near-misses that must not, and every valid story fixture of the project scans with no T4.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Category, Tier } from '../../../../../src/domain/capability/categories.ts';
import { scanStory } from '../../../../../src/domain/capability/scan.ts';

const CAPABILITY = new URL('../../../../fixtures/capability/', import.meta.url);
const STORIES = new URL('../../../../fixtures/stories/', import.meta.url);

/** Fixture → the tier and exactly the categories its scan must report. */
const TABLE: Record<string, [Tier, Category[]]> = {
  'remote-execution-hit-pipe-to-sudo-bash': ['T4', ['remote_execution', 'privilege', 'network', 'local_execution']],
  'remote-execution-hit-process-substitution': ['T4', ['remote_execution', 'network', 'local_execution']],
  'remote-execution-hit-download-then-run': ['T4', ['remote_execution', 'network', 'local_execution', 'file_write']],
  'remote-execution-hit-powershell-iex': ['T4', ['remote_execution']],
  'remote-execution-near-download-to-file': ['T2', ['network', 'file_write']],
  'remote-execution-near-echoed-pipe': ['T0', []],
  'remote-execution-near-text-block': ['T0', []],
  'obfuscation-hit-base64-to-shell': ['T4', ['obfuscation', 'local_execution']],
  'obfuscation-hit-eval-decoded': ['T4', ['obfuscation', 'local_execution']],
  'obfuscation-hit-bidi-override': ['T4', ['obfuscation']],
  'obfuscation-near-decode-to-file': ['T1', ['file_write']],
  'obfuscation-near-encode-only': ['T0', []],
  'persistence-hit-crontab-append': ['T3', ['persistence']],
  'persistence-hit-bashrc-append': ['T3', ['persistence', 'file_write']],
  'persistence-hit-systemd-enable': ['T3', ['persistence']],
  'persistence-hit-git-hook': ['T3', ['persistence', 'file_write']],
  'persistence-near-crontab-list': ['T0', []],
  'persistence-near-source-rc': ['T1', ['local_execution']],
  'secrets-hit-aws-credentials': ['T3', ['secrets']],
  'secrets-hit-printenv': ['T3', ['secrets']],
  'secrets-hit-echo-token': ['T3', ['secrets']],
  'secrets-hit-keychain': ['T3', ['secrets']],
  'secrets-hit-prose-path': ['T3', ['secrets']],
  'secrets-near-public-key': ['T0', []],
  'secrets-near-dotenv-from-template': ['T1', ['file_write']],
  'secrets-near-token-as-auth': ['T2', ['network']],
  'destructive-hit-rm-home-dir': ['T3', ['destructive']],
  'destructive-hit-dd-device': ['T3', ['destructive', 'file_write']],
  'destructive-hit-force-push': ['T3', ['destructive', 'network']],
  'destructive-hit-drop-table': ['T3', ['destructive']],
  'destructive-near-build-dirs': ['T1', ['file_write']],
  'destructive-near-quoted-in-prose': ['T0', []],
  'destructive-near-plain-push-and-where': ['T2', ['network', 'file_write']],
  'privilege-hit-sudo': ['T3', ['privilege', 'local_execution']],
  'privilege-hit-setuid': ['T3', ['privilege']],
  'privilege-hit-chown-root': ['T3', ['privilege']],
  'privilege-near-chmod-x': ['T1', ['file_write']],
  'privilege-near-chown-user': ['T1', ['file_write']],
  'exfiltration-hit-upload-key': ['T3', ['exfiltration', 'secrets', 'network']],
  'exfiltration-hit-env-to-socket': ['T3', ['exfiltration', 'secrets']],
  'exfiltration-hit-scp-out': ['T3', ['exfiltration']],
  'exfiltration-near-literal-json': ['T2', ['network']],
  'exfiltration-near-own-payload': ['T2', ['network', 'file_write']],
  'exfiltration-near-port-probe': ['T2', ['network']],
  'network-hit-git-clone': ['T2', ['network']],
  'network-hit-package-installs': ['T2', ['network']],
  'network-hit-docker-pull': ['T2', ['network']],
  'network-near-local-scripts': ['T1', ['local_execution']],
  'network-near-versions': ['T0', []],
  'local-execution-hit-script': ['T1', ['local_execution']],
  'local-execution-hit-transcript': ['T1', ['local_execution']],
  'local-execution-near-read-only': ['T0', []],
  'local-execution-near-code-shown': ['T0', []],
  'file-write-hit-mkdir': ['T1', ['file_write']],
  'file-write-hit-redirect': ['T1', ['file_write']],
  'file-write-near-grep': ['T0', []],
  'file-write-near-devnull': ['T0', []],
  'agent-directive-hit-html-comment': ['T4', ['agent_directive', 'obfuscation', 'local_execution']],
  'agent-directive-hit-link-title': ['T4', ['agent_directive', 'obfuscation']],
  'agent-directive-hit-prose-override': ['T3', ['agent_directive']],
  'agent-directive-hit-send-secrets': ['T3', ['agent_directive', 'exfiltration']],
  'agent-directive-near-injection-story': ['T0', []],
  'agent-directive-near-agent-steps': ['T1', ['local_execution']],
  'agent-config-hit-skill-prose': ['T3', ['agent_config']],
  'agent-config-hit-mcp-add': ['T3', ['agent_config', 'local_execution']],
  'agent-config-hit-hook-settings': ['T3', ['agent_config', 'file_write']],
  'agent-config-near-read-instructions': ['T0', []],
  'agent-config-near-backup-settings': ['T1', ['file_write', 'local_execution']],
};

/** The project's valid story fixtures and the tier each scans to. */
const STORY_TIERS: Record<string, Tier> = {
  'success-with-check.md': 'T0',
  'fail-open.md': 'T0',
  'unicode-long-title.md': 'T0',
  'as-written/check-all-one-list.md': 'T0',
  'as-written/check-bulleted-steps.md': 'T0',
  'as-written/check-code-steps.md': 'T1',
  'as-written/check-one-paragraph.md': 'T0',
  'as-written/check-plain-steps.md': 'T0',
  'as-written/check-steps-after-label-inline.md': 'T0',
  'as-written/check-verdicts-one-line.md': 'T0',
  'as-written/exported-from-page.md': 'T0',
  'as-written/fail-attempt-styles.md': 'T0',
  'as-written/loose-spacing-and-case.md': 'T0',
  'as-written/reproduce-bold-and-quoted.md': 'T0',
  'as-written/reproduce-inline-labels.md': 'T0',
  'as-written/reproduce-step-styles.md': 'T0',
  'as-written/reproduce-subheadings.md': 'T0',
  'as-written/windows-crlf-bom.md': 'T0',
  'as-written/worklore-template-fail.md': 'T0',
  'as-written/worklore-template-success.md': 'T0',
};

const fixture = (name: string): string => readFileSync(new URL(`${name}.md`, CAPABILITY), 'utf8');
const categoryOf = (name: string): string => name.replace(/-(?:hit|near)-.*$/, '').replace(/-/g, '_');

describe('the capability fixture table', () => {
  it('lists every fixture in test/fixtures/capability, and each exists', () => {
    const files = readdirSync(CAPABILITY).map((file) => file.replace(/\.md$/, ''));
    expect(files.sort()).toEqual(Object.keys(TABLE).sort());
  });

  it.each(Object.entries(TABLE))('%s scans to its tier and exactly its categories', (name, [tier, categories]) => {
    const report = scanStory(fixture(name));
    expect(report.tier).toBe(tier);
    expect([...new Set(report.findings.map((found) => found.category))].sort()).toEqual([...categories].sort());
  });

  it('has at least two hits and two near-misses per category, and no near-miss reports its own category', () => {
    const names = Object.keys(TABLE);
    for (const category of new Set(names.map(categoryOf))) {
      const hits = names.filter((name) => categoryOf(name) === category && name.includes('-hit-'));
      const nearMisses = names.filter((name) => categoryOf(name) === category && name.includes('-near-'));
      expect(hits.length, category).toBeGreaterThanOrEqual(2);
      expect(nearMisses.length, category).toBeGreaterThanOrEqual(2);
      for (const name of hits) expect(TABLE[name]?.[1], name).toContain(category);
      for (const name of nearMisses) expect(TABLE[name]?.[1], name).not.toContain(category);
    }
  });

  it('puts each finding on the story line that holds its evidence', () => {
    for (const name of Object.keys(TABLE)) {
      const lines = fixture(name).split('\n');
      for (const found of scanStory(fixture(name)).findings) {
        const line = lines[found.line - 1] ?? '';
        const start = found.evidence.replace(/\\u\{[0-9A-F]+\}/g, '').slice(0, 12);
        expect(line.replace(/[\u202a-\u202e]/g, ''), `${name} line ${found.line}`).toContain(start.replace(/…$/, ''));
      }
    }
  });
});

describe('the project story fixtures', () => {
  it.each(Object.entries(STORY_TIERS))('%s scans with no T4, to its known tier', (name, tier) => {
    expect(scanStory(readFileSync(new URL(name, STORIES), 'utf8')).tier).toBe(tier);
  });
});
