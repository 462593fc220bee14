// Python, JavaScript and PowerShell, read line by line for the obvious cases only: no parser for
// these languages is installed, and a pattern that needs more than one line to judge is left
// alone rather than guessed. A string handed to a shell (`os.system("…")`, `execSync('…')`) is
// returned so the caller can read it as shell.
import type { Hit } from './finding.ts';
import { isSecretPath } from './path-rules.ts';

export type ScriptLanguage = 'python' | 'javascript' | 'powershell';

interface LineRule {
  test: RegExp;
  hit: Hit;
}

const rule = (test: RegExp, category: Hit['category'], name: string): LineRule => ({ test, hit: { category, rule: name } });

const PY_NETWORK =
  /\b(?:requests|httpx|aiohttp|urllib3?)\.|\burlopen\(|\burllib\.request\b|\bhttp\.client\b|\bsocket\.(?:socket|create_connection)\(/;
const JS_NETWORK = /\bfetch\(|\baxios\b|\bhttps?\.(?:get|request)\(|\bXMLHttpRequest\b|\bnew WebSocket\(|\bgot\(|\bundici\b/;
const PS_NETWORK =
  /\b(?:Invoke-WebRequest|Invoke-RestMethod|iwr|irm|Start-BitsTransfer|DownloadString|DownloadFile|Net\.WebClient|curl|wget)\b/i;

const RULES: Record<ScriptLanguage, readonly LineRule[]> = {
  python: [
    rule(new RegExp(String.raw`\b(?:exec|eval)\(.*(?:${PY_NETWORK.source})`), 'remote_execution', 'runs-downloaded-code'),
    rule(
      /\b(?:exec|eval)\(.*\b(?:b64decode|b32decode|a85decode|codecs\.decode|zlib\.decompress|marshal\.loads|bytes\.fromhex)\(/,
      'obfuscation',
      'runs-decoded-text',
    ),
    rule(/\bsubprocess\.|\bos\.(?:system|popen|exec\w*|spawn\w*)\(|\bpty\.spawn\(/, 'local_execution', 'runs-subprocess'),
    rule(/(?:^|[^.\w])(?:exec|eval)\(/, 'local_execution', 'evaluates-code'),
    rule(
      /(?:\.post\(|\.put\(|data=).*(?:os\.environ|open\()|(?:os\.environ|open\().*(?:\.post\(|\.put\()/,
      'exfiltration',
      'posts-files-or-environment',
    ),
    rule(PY_NETWORK, 'network', 'calls-network'),
    rule(/\bprint\(\s*(?:dict\()?os\.environ\s*\)?\)|\bos\.environ\.copy\(\)/, 'secrets', 'dumps-environment'),
    rule(
      /\bshutil\.rmtree\(|\bos\.(?:remove|unlink|rmdir|makedirs|mkdir|rename|replace)\(|\.write_(?:text|bytes)\(|\bopen\([^)]*,\s*['"][wax]b?\+?['"]/,
      'file_write',
      'writes-files',
    ),
  ],
  javascript: [
    rule(
      new RegExp(String.raw`\b(?:eval|Function|runIn\w*Context|runInThisContext)\(.*(?:${JS_NETWORK.source})`),
      'remote_execution',
      'runs-downloaded-code',
    ),
    rule(/\b(?:eval|Function)\(.*\b(?:atob\(|Buffer\.from\([^)]*['"](?:base64|hex)['"])/, 'obfuscation', 'runs-decoded-text'),
    rule(/\bchild_process\b|\b(?:execSync|execFileSync|spawnSync|execFile|spawn|exec)\(/, 'local_execution', 'runs-subprocess'),
    rule(/(?:^|[^.\w])eval\(|\bnew Function\(/, 'local_execution', 'evaluates-code'),
    rule(new RegExp(String.raw`(?:${JS_NETWORK.source}).*(?:process\.env\b|readFileSync\()`), 'exfiltration', 'posts-files-or-environment'),
    rule(JS_NETWORK, 'network', 'calls-network'),
    rule(/\bconsole\.\w+\(\s*process\.env\s*\)|JSON\.stringify\(\s*process\.env\s*\)/, 'secrets', 'dumps-environment'),
    rule(/\bfs\.(?:promises\.)?(?:writeFile|appendFile|mkdir|rm|rmdir|unlink|rename|copyFile|cp)(?:Sync)?\(/, 'file_write', 'writes-files'),
  ],
  powershell: [
    rule(
      new RegExp(
        String.raw`\b(?:iex|Invoke-Expression)\b.*(?:${PS_NETWORK.source})|(?:${PS_NETWORK.source}).*\|\s*(?:iex|Invoke-Expression)\b`,
        'i',
      ),
      'remote_execution',
      'runs-downloaded-code',
    ),
    rule(
      /-(?:EncodedCommand|enc|e)\s+[A-Za-z0-9+/=]{16,}|\b(?:iex|Invoke-Expression)\b.*FromBase64String/i,
      'obfuscation',
      'runs-decoded-text',
    ),
    rule(/-Verb\s+RunAs\b|\bSet-ExecutionPolicy\b|\bAdd-LocalGroupMember\b.*Administrators/i, 'privilege', 'runs-as-administrator'),
    rule(
      /\b(?:Register-ScheduledTask|New-ScheduledTask|schtasks(?:\.exe)?\s+\/create)\b|\\CurrentVersion\\Run\b|\$PROFILE\b.*(?:Add-Content|Set-Content|Out-File)|(?:Add-Content|Set-Content|Out-File).*\$PROFILE\b/i,
      'persistence',
      'runs-at-startup',
    ),
    rule(
      /\bRemove-Item\b(?=.*-Recurse)(?=.*-Force)|\b(?:Format-Volume|Clear-Disk|Remove-Partition)\b/i,
      'destructive',
      'deletes-recursively',
    ),
    rule(/\b(?:Get-ChildItem|gci|dir|ls)\s+env:|\bGet-Credential\b|ConvertFrom-SecureString/i, 'secrets', 'dumps-environment'),
    rule(/-Method\s+(?:Post|Put)\b.*(?:-InFile\b|Get-Content|\$env:)|-InFile\b/i, 'exfiltration', 'uploads-local-file'),
    rule(PS_NETWORK, 'network', 'calls-network'),
    rule(
      /\b(?:Set-Content|Add-Content|Out-File|New-Item|Copy-Item|Move-Item|Remove-Item|Rename-Item|Expand-Archive)\b|>{1,2}\s*\S/i,
      'file_write',
      'writes-files',
    ),
  ],
};

/** PowerShell lines that only look or move around; any other command line runs something. */
const PS_READ_ONLY =
  /^\s*(?:Get-\w+|Test-\w+|Write-(?:Host|Output)|echo|cd|Set-Location|Select-\w+|Measure-\w+|Format-(?:List|Table)|\$\w+\s*=)/i;

const COMMENT: Record<ScriptLanguage, RegExp> = { python: /^\s*#/, javascript: /^\s*(?:\/\/|\/\*|\*)/, powershell: /^\s*#/ };

/** Strings a script hands to a shell; the caller reads them as shell. */
const SHELL_STRING: Record<ScriptLanguage, RegExp> = {
  python: /\b(?:os\.(?:system|popen)|subprocess\.\w+)\(\s*[rfb]?(["'])((?:(?!\1)[^\\]|\\.)*)\1/g,
  javascript: /\b(?:execSync|exec)\(\s*(["'`])((?:(?!\1)[^\\]|\\.)*)\1/g,
  powershell: /\b(?:bash|sh|wsl)\s+-c\s+(["'])((?:(?!\1)[^\\]|\\.)*)\1/g,
};

export interface ScriptLineHits {
  hits: Hit[];
  shellStrings: string[];
}

/** The first matching rule of each group that applies to one line (network and its upgrade, not both). */
export function scriptLineHits(language: ScriptLanguage, line: string): ScriptLineHits {
  if (COMMENT[language].test(line) || line.trim() === '') return { hits: [], shellStrings: [] };
  const hits: Hit[] = [];
  const matched = new Set<string>();
  for (const { test, hit } of RULES[language]) {
    // A line that runs downloaded code is not also reported as merely calling the network.
    if (!test.test(line) || matched.has(hit.category)) continue;
    if (hit.category === 'network' && (matched.has('remote_execution') || matched.has('exfiltration'))) continue;
    if (hit.category === 'local_execution' && (matched.has('remote_execution') || matched.has('obfuscation'))) continue;
    matched.add(hit.category);
    hits.push(hit);
  }
  if (isSecretPath(line)) hits.push({ category: 'secrets', rule: 'touches-credentials' });
  if (language === 'powershell' && hits.length === 0 && !PS_READ_ONLY.test(line))
    hits.push({ category: 'local_execution', rule: 'runs-command' });
  const shellStrings = [...line.matchAll(SHELL_STRING[language])].map((match) => match[2] ?? '');
  return { hits, shellStrings };
}
