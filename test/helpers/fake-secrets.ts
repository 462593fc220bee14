// Real-looking credentials for the secret scan's tests and benches, built at run time from pieces
// and a seeded generator: none of them was ever issued, and the repository never holds one whole
// (a scanner run over this repository finds nothing here). Each is `distinctive`: a run of its
// random part long enough that finding it in a table or a log means the secret leaked.

export interface FakeSecret {
  /** The finding kind lorebook names for it (src/domain/secrets/secret-kinds.ts). */
  kind: string;
  /** What a story would hold: the credential in its usual setting (an env line, a config block). */
  text: string;
  /** A substring of the secret alone that no ordinary text holds: searched for in stores and logs. */
  distinctive: string;
}

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const DIGITS = '0123456789';
const ALNUM = UPPER + LOWER + DIGITS;
const BASE64 = `${ALNUM}+/`;
const URLSAFE = `${ALNUM}-_`;

/** A small seeded generator (mulberry32), so every run builds the same credentials. */
function generator(seed: number): (alphabet: string, length: number) => string {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return (alphabet, length) => Array.from({ length }, () => alphabet[Math.floor(next() * alphabet.length)]).join('');
}

const dash5 = '-'.repeat(5);
const pem = (label: string, body: string): string =>
  [`${dash5}BEGIN ${label}${dash5}`, ...(body.match(/.{1,64}/g) ?? []), `${dash5}END ${label}${dash5}`].join('\n');

/** Every kind, freshly built from `seed` (a different seed, different values). */
export function fakeSecrets(seed = 25): FakeSecret[] {
  const r = generator(seed);
  const awsId = ['AK', 'IA', r(`${UPPER}234567`, 16)].join('');
  const awsSecret = r(BASE64, 40);
  const ghp = ['gh', 'p_', r(ALNUM, 36)].join('');
  const pat = ['github', '_pat_', r(ALNUM, 22), '_', r(ALNUM, 59)].join('');
  const xoxb = ['xo', 'xb-', r(DIGITS, 12), '-', r(DIGITS, 13), '-', r(ALNUM, 24)].join('');
  const xoxp = ['xo', 'xp-', r(DIGITS, 12), '-', r(DIGITS, 12), '-', r(DIGITS, 13), '-', r(`abcdef${DIGITS}`, 32)].join('');
  const hook = ['https://hooks.', 'slack.com/services/T', r(UPPER + DIGITS, 10), '/B', r(UPPER + DIGITS, 10), '/', r(ALNUM, 24)].join('');
  // Real keys open with their format's magic bytes (ASN.1's SEQUENCE, OpenSSH's header): scanners check them.
  const rsa = `MIIEow${r(BASE64, 64 * 12)}`;
  const openssh = `b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ${r(BASE64, 64 * 6)}`;
  const openai = ['sk-', r(ALNUM, 20), 'T3Blbk', 'FJ', r(ALNUM, 20)].join('');
  const proj = ['sk-', 'proj-', r(URLSAFE, 74), 'T3Blbk', 'FJ', r(URLSAFE, 74)].join('');
  const anthropic = ['sk-', 'ant-', 'api03-', r(URLSAFE, 93), 'AA'].join('');
  const stripe = ['sk_', 'live_', r(ALNUM, 99)].join('');
  const google = ['AI', 'za', r(URLSAFE, 35)].join('');
  const npm = ['np', 'm_', r(ALNUM, 36)].join('');
  const lorebook = ['lb', 'k_', r(URLSAFE, 43)].join('');
  const dbPassword = r(ALNUM, 18);
  const jwt = [
    Buffer.from('{"alg":"HS256","typ":"JWT"}').toString('base64url'),
    Buffer.from(`{"sub":"${r(DIGITS, 10)}","name":"deploy-bot","iat":${r(DIGITS, 10)}}`).toString('base64url'),
    r(URLSAFE, 43),
  ].join('.');
  const basicPassword = r(ALNUM, 16);
  const gcpKey = `MIIEvQIBADANBgkqhkiG9w0BAQEFAASC${r(BASE64, 64 * 10)}`;
  const gcpJson = JSON.stringify(
    {
      type: 'service_account',
      project_id: 'lore-build-417',
      private_key_id: r(`abcdef${DIGITS}`, 40),
      private_key: `${pem('PRIVATE KEY', gcpKey)}\n`,
      client_email: 'deployer@lore-build-417.iam.gserviceaccount.com',
      client_id: r(DIGITS, 21),
    },
    null,
    2,
  );
  return [
    { kind: 'aws_access_key_id', text: `AWS_ACCESS_KEY_ID=${awsId}`, distinctive: awsId.slice(4) },
    { kind: 'aws_secret_access_key', text: `AWS_SECRET_ACCESS_KEY=${awsSecret}`, distinctive: awsSecret.slice(0, 24) },
    { kind: 'github_token', text: `export GITHUB_TOKEN=${ghp}`, distinctive: ghp.slice(4, 30) },
    { kind: 'github_token', text: `token: ${pat}`, distinctive: pat.slice(11, 40) },
    { kind: 'slack_token', text: `SLACK_BOT_TOKEN=${xoxb}`, distinctive: xoxb.slice(5, 30) },
    { kind: 'slack_token', text: `slack user token ${xoxp}`, distinctive: xoxp.slice(5, 40) },
    { kind: 'slack_webhook', text: `curl -X POST ${hook}`, distinctive: hook.slice(-24) },
    { kind: 'private_key', text: pem('RSA PRIVATE KEY', rsa), distinctive: rsa.slice(64, 100) },
    { kind: 'private_key', text: pem('OPENSSH PRIVATE KEY', openssh), distinctive: openssh.slice(64, 100) },
    { kind: 'openai_api_key', text: `OPENAI_API_KEY=${openai}`, distinctive: openai.slice(3, 23) },
    { kind: 'openai_api_key', text: `OPENAI_API_KEY="${proj}"`, distinctive: proj.slice(8, 50) },
    { kind: 'anthropic_api_key', text: `ANTHROPIC_API_KEY=${anthropic}`, distinctive: anthropic.slice(14, 60) },
    { kind: 'stripe_secret_key', text: `STRIPE_KEY=${stripe}`, distinctive: stripe.slice(8, 40) },
    { kind: 'google_api_key', text: `const key = "${google}";`, distinctive: google.slice(4) },
    { kind: 'lorebook_token', text: `LOREBOOK_TOKEN=${lorebook}`, distinctive: lorebook.slice(4) },
    { kind: 'npm_token', text: `//registry.npmjs.org/:_authToken=${npm}`, distinctive: npm.slice(4) },
    {
      kind: 'database_url_password',
      text: `DATABASE_URL=postgres://app:${dbPassword}@db.internal.lore-build.net:5432/lore`,
      distinctive: dbPassword,
    },
    { kind: 'jwt', text: `Authorization: Bearer ${jwt}`, distinctive: jwt.slice(-30) },
    { kind: 'basic_auth_url', text: `git clone https://deploy:${basicPassword}@git.lore-build.net/app.git`, distinctive: basicPassword },
    { kind: 'private_key', text: gcpJson, distinctive: gcpKey.slice(64, 100) },
  ];
}

/** Placeholders documentation uses: a story may quote them. */
export function documentationPlaceholders(): string[] {
  const x = (n: number): string => 'x'.repeat(n);
  return [
    `AWS_ACCESS_KEY_ID=${['AKIA', 'IOSFODNN7', 'EXAMPLE'].join('')}`,
    `AWS_SECRET_ACCESS_KEY=${['wJalrXUtnFEMI', '/K7MDENG/bPxRfiCY', 'EXAMPLEKEY'].join('')}`,
    `GITHUB_TOKEN=${['gh', 'p_'].join('')}${x(36)}`,
    `GITHUB_TOKEN=${['gh', 'p_'].join('')}${'X'.repeat(36)}`,
    'OPENAI_API_KEY=sk-...',
    `OPENAI_API_KEY=sk-${x(48)}`,
    'ANTHROPIC_API_KEY=sk-ant-...',
    'SLACK_BOT_TOKEN=<your-token>',
    'Authorization: Bearer <your-token>',
    'STRIPE_KEY=sk_live_...',
    `STRIPE_KEY=sk_live_${'0'.repeat(24)}`,
    `DATABASE_URL=postgres://user:password@localhost:5432/app`,
    'DATABASE_URL=postgres://user:<password>@localhost:5432/app',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell-style placeholder, literally, as a .env file holds it
    'DATABASE_URL=postgres://${DB_USER}:${DB_PASSWORD}@db:5432/app',
    `SLACK_WEBHOOK=https://hooks.slack.com/services/T00000000/B00000000/${'X'.repeat(24)}`,
    `${dash5}BEGIN RSA PRIVATE KEY${dash5}\n...\n${dash5}END RSA PRIVATE KEY${dash5}`,
    `key: ${['AI', 'za'].join('')}${'X'.repeat(35)}`,
    `//registry.npmjs.org/:_authToken=\${NPM_TOKEN}`,
    'git clone https://user:pass@example.com/repo.git',
  ];
}
