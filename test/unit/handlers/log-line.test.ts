// The Lambda functions' log (console.log, which CloudWatch Logs reads) and the CLI sinks write one
// physical line per call whatever the line quotes: a real Node process prints through each sink
// and its own stdout / stderr is read back.
import { execFileSync, spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const FORGED = 'lorebook: oauth consent approved: "App\n{"forged":true}\r\u2028x"';

function printedBy(sink: 'defaultLog' | 'stdoutLog' | 'stderrLog'): string {
  const from = sink === 'defaultLog' ? './handlers/lambda-runtime.ts' : './src/log-sink.ts';
  const script = `import { ${sink} } from '${from}'; ${sink}(${JSON.stringify(FORGED)});`;
  if (sink === 'stderrLog') return spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }).stderr;
  return execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
}

describe('log sinks', () => {
  it.each(['defaultLog', 'stdoutLog', 'stderrLog'] as const)('%s writes a line quoting a line break as one escaped line', (sink) => {
    const output = printedBy(sink);
    expect(output).toBe('lorebook: oauth consent approved: "App\\n{"forged":true}\\r\\u{2028}x"\n');
  });
});
