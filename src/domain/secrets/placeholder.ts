// Documentation's credentials stay publishable: a story may quote AWS's documented example key
// pair, `ghp_` followed by x's, `sk_live_000…`, `<your-token>` or `${DB_PASSWORD}`. A finding whose
// matched text looks like one of those is not a secret. Real credentials are random: they hold no
// word EXAMPLE, no template brackets, no ellipsis and no run of six identical characters.

const TEMPLATE_MARKS = /[<>{}]|\.\.\.|…|\$\(|%[A-Z_]+%/;
const EXAMPLE = /example/i;
const LONG_RUN = /(.)\1{5,}/;
/** `user:PASSWORD@`: the password of a URL, for the words people write in its place. */
const URL_PASSWORD = /:\/\/[^:/@\s]*:([^@\s/]*)@/;
const PLACEHOLDER_PASSWORDS = new Set([
  'pass',
  'password',
  'passwd',
  'pwd',
  'secret',
  'changeme',
  'change_me',
  'yourpassword',
  'your_password',
  'mypassword',
  'my_password',
  'token',
  'redacted',
  'hunter2',
]);

/**
 * Whether `matched` (the text a rule matched) is a documentation placeholder. A private key's
 * base64 is left to its rule (real keys hold runs like AAAAAA, and the rule already refuses
 * `...` bodies), so `runsAllowed` turns the run check off for it.
 */
export function isPlaceholder(matched: string, runsAllowed = false): boolean {
  if (EXAMPLE.test(matched) || TEMPLATE_MARKS.test(matched)) return true;
  if (!runsAllowed && LONG_RUN.test(matched)) return true;
  const password = URL_PASSWORD.exec(matched)?.[1];
  return password !== undefined && PLACEHOLDER_PASSWORDS.has(password.toLowerCase());
}
