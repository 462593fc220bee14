// Paths that say what a command touches, whatever the command: credentials (read or written),
// and the places that make something run again later (written).

/** The home directory, however a step writes it. */
export const HOME = String.raw`(?:~|\$HOME|\$\{HOME\}|%USERPROFILE%|\$env:USERPROFILE|/root|/home/[^/\s]+|/Users/[^/\s]+)`;

/** Private keys and credential stores. A public key (`.pub`) and known_hosts are not secrets. */
const SECRET_PATHS: readonly RegExp[] = [
  new RegExp(
    String.raw`(?:^|[\s=:'"(])${HOME}?/?\.ssh(?:/(?!known_hosts\b|[^\s'"]*\.pub\b|authorized_keys\b|config\b)[^\s'"]+|/?(?=[\s'"]|$))`,
  ),
  /\bid_(?:rsa|dsa|ecdsa|ed25519)\b(?!\.pub)/,
  /\.aws\/credentials\b/,
  /\.(?:netrc|git-credentials|pgpass)\b/,
  /\.docker\/config\.json\b/,
  /\.kube\/config\b/,
  /\.config\/gh\/hosts\.yml\b/,
  /\.gnupg\/(?:private-keys|secring)/,
  /\/etc\/shadow\b/,
  /\bLogin Data\b|\/Keychains\//,
];

/** A dotenv file holds the project's secrets; its templates do not. */
const DOTENV = /(?:^|\/)\.env(?:\.(?!example\b|sample\b|template\b|dist\b|defaults\b)[\w.-]+)?$/;

/** Written, these run again later: at login, on a schedule, at boot, on a git action (an agent's own settings are agent_config). */
const PERSISTENCE_PATHS: readonly RegExp[] = [
  new RegExp(String.raw`${HOME}?/?\.(?:bashrc|bash_profile|bash_login|profile|zshrc|zshenv|zprofile|zlogin|kshrc|cshrc|tcshrc)\b`),
  /\.config\/fish\/config\.fish\b/,
  /\/etc\/(?:profile|bash\.bashrc|zshrc|environment|rc\.local)\b|\/etc\/profile\.d\//,
  /\/etc\/cron|\/var\/spool\/cron|\/etc\/anacrontab/,
  /\/etc\/systemd\/|\.config\/systemd\/|\/lib\/systemd\/system\//,
  /\/Library\/Launch(?:Agents|Daemons)\b/,
  /\.git\/hooks\/|\.husky\//,
  /\.ssh\/authorized_keys\b/,
  /\/etc\/init\.d\/|\/etc\/xdg\/autostart\/|\.config\/autostart\//,
];

export function isSecretPath(word: string): boolean {
  return SECRET_PATHS.some((pattern) => pattern.test(word));
}

/** A dotenv file is a secret when it is read; writing one (from its template) is a file write. */
export function isDotEnv(word: string): boolean {
  return DOTENV.test(word);
}

export function isPersistencePath(word: string): boolean {
  return PERSISTENCE_PATHS.some((pattern) => pattern.test(word));
}

/** Variables that hold credentials, by the words their names are made of. */
const TOKEN_VARIABLE =
  /\$\{?([A-Za-z_][A-Za-z0-9_]*(?:TOKEN|SECRET|PASSWORD|PASSWD|PASS|API_?KEY|PRIVATE_?KEY|ACCESS_?KEY|CREDENTIALS?|AUTH)[A-Za-z0-9_]*)\}?/i;

/** True when the text expands a variable whose name says it holds a credential (`$GITHUB_TOKEN`). */
export function expandsTokenVariable(text: string): boolean {
  return TOKEN_VARIABLE.test(text);
}

/** True for a bare variable name that says it holds a credential (`printenv GITHUB_TOKEN`). */
export function isTokenVariableName(word: string): boolean {
  return TOKEN_VARIABLE.test(`$${word}`) && /^[A-Za-z_][A-Za-z0-9_]*$/.test(word);
}
