// The secret scan finds every kind of credential an agent's context holds, naming its kind and
// line; documentation's placeholders pass; and what it reports never holds the value.
import { describe, expect, it } from 'vitest';
import { scanForSecrets } from '../../../../src/domain/secrets/scan-secrets.ts';
import { secretDetected } from '../../../../src/domain/secrets/secret-refusal.ts';
import { documentationPlaceholders, fakeSecrets } from '../../../helpers/fake-secrets.ts';

/** A story with the credential inside a fenced block that starts on line 7. */
const storyHolding = (text: string): string =>
  [
    '---',
    'title: Deploying the worker',
    '---',
    '',
    'I set the environment up like this:',
    '',
    '```sh',
    text,
    '```',
    '',
    'Then it ran.',
  ].join('\n');

describe('the secret scan', () => {
  it.each(fakeSecrets().map((secret) => [secret.kind, secret] as const))(
    'finds a %s and names its kind and line',
    async (_kind, secret) => {
      const findings = await scanForSecrets(storyHolding(secret.text));
      const lines = secret.text.split('\n').length;
      // A service account's JSON names the line its private_key is on, within the block.
      expect(findings.filter((finding) => finding.kind === secret.kind && finding.line >= 8 && finding.line < 8 + lines)).toHaveLength(1);
    },
  );

  it('counts lines from 1 and finds each of several credentials on its own line', async () => {
    const [aws, , github] = fakeSecrets();
    const findings = await scanForSecrets(`${aws?.text}\n\nplain words\n${github?.text}`);
    expect(findings.map(({ kind, line }) => ({ kind, line }))).toEqual([
      { kind: 'aws_access_key_id', line: 1 },
      { kind: 'github_token', line: 4 },
    ]);
  });

  it('finds a credential whatever the seed: the rules match the shape, not these values', async () => {
    for (const seed of [1, 2, 3]) {
      for (const secret of fakeSecrets(seed)) {
        expect(
          (await scanForSecrets(secret.text)).map((finding) => finding.kind),
          `${secret.kind} (seed ${seed})`,
        ).toContain(secret.kind);
      }
    }
  });

  it.each(documentationPlaceholders().map((text) => [text.slice(0, 48), text] as const))(
    'lets the placeholder %j pass',
    async (_shown, text) => {
      expect(await scanForSecrets(storyHolding(text))).toEqual([]);
    },
  );

  it('finds an AWS secret access key that ends in + or / (the preset alone misses those)', async () => {
    const key = fakeSecrets(20).find((secret) => secret.kind === 'aws_secret_access_key') as { text: string };
    for (const end of ['+', '/']) {
      const text = `${key.text.slice(0, -1)}${end}`;
      expect((await scanForSecrets(text)).map((finding) => finding.kind)).toEqual(['aws_secret_access_key']);
    }
  });

  it('passes an AWS account id: not a secret, and CDK and CloudTrail docs are full of them', async () => {
    expect(await scanForSecrets('aws_account_id: 123456789012\nAWS_ACCOUNT_ID=1234-5678-9012')).toEqual([]);
  });

  it('is not switched off by a secretlint-disable comment in the text it scans', async () => {
    const github = fakeSecrets().find((secret) => secret.kind === 'github_token') as { text: string };
    const text = `<!-- secretlint-disable -->\n${github.text}\n<!-- secretlint-enable -->\n# secretlint-disable-line\n${github.text} // secretlint-disable-line`;
    expect((await scanForSecrets(text)).map((finding) => finding.line)).toEqual([2, 5]);
    expect(await scanForSecrets(`<!-- secretlint-disable -->\n${github.text}`)).toHaveLength(1);
  });

  it('passes ordinary technical prose: hashes, UUIDs, base64 images, URLs with a user only', async () => {
    const prose = [
      'commit 5aafce8d0c2b4f0e9a1b3c5d7e9f1a2b3c4d5e6f fixed it; run 3f1c2a7e-9b4d-4c8e-8f00-1a2b3c4d5e6f.',
      'sha256: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
      '![diagram](data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==)',
      'Clone with git clone ssh://git@github.com/lorebook/lorebook.git and see https://example.com/a?b=c.',
      'The header is eyJhbGciOiJub25lIn0 and the token format is `lbk_` plus 43 characters.',
    ].join('\n');
    expect(await scanForSecrets(prose)).toEqual([]);
  });
});

describe('the secret_detected refusal', () => {
  const secrets = fakeSecrets();
  const findings = secrets.map((secret, index) => ({
    field: index % 2 === 0 ? 'markdown' : 'note',
    line: index + 1,
    kind: secret.kind,
    label: 'Credential',
  }));

  it('is a 422, not retryable, and names kind, line and field', () => {
    const error = secretDetected('publish_story', [
      { field: 'markdown', line: 41, kind: 'aws_secret_access_key', label: 'AWS secret access key' },
    ]);
    expect(error.httpStatus).toBe(422);
    expect(error.retryable).toBe(false);
    expect(error.message).toContain('AWS secret access key at line 41 of the story (field `markdown`)');
    expect(error.message).toMatch(/Remove it \(rotate it if it was real/);
    expect(error.toBody().details).toEqual({ findings: [{ field: 'markdown', line: 41, kind: 'aws_secret_access_key' }] });
  });

  it('never holds a value or a prefix of one, however many findings it lists', async () => {
    const text = secrets.map((secret) => secret.text).join('\n');
    const found = await scanForSecrets(text);
    const body = JSON.stringify(
      secretDetected(
        'publish_story',
        found.map((finding) => ({ field: 'markdown', ...finding })),
      ).toBody(),
    );
    for (const secret of secrets) {
      expect(body).not.toContain(secret.distinctive);
      expect(body).not.toContain(secret.distinctive.slice(0, 8));
    }
  });

  it('lists five findings in the message and every one in details', () => {
    const error = secretDetected('report_reproduction', findings);
    expect(error.message).toContain(`and ${findings.length - 5} more`);
    expect((error.details?.findings as unknown[]).length).toBe(findings.length);
  });
});
