// Judges the conformance suite's `authorization` results against a baseline, the way its `server`
// command judges `--expected-failures` (which `authorization` does not take): an entry is a
// scenario or `scenario:check-id`; a check failing or warning that no entry lists is unexpected,
// and a listed entry that passes is stale (the baseline must shrink). A scenario passes when it has
// checks and every one is SUCCESS, so one that was only SKIPPED does not.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

interface Check {
  id: string;
  status: string;
}

export interface Judgement {
  unexpected: string[];
  stale: string[];
  expected: string[];
}

const RESULT_DIR = /^authorization-server-(.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$/;
const notPassing = (check: Check): boolean => check.status !== 'SUCCESS';

/** Every scenario's checks in the suite's output folder (`-o`), by scenario name. */
export function readResults(outputDir: string): Map<string, Check[]> {
  const results = new Map<string, Check[]>();
  for (const entry of existsSync(outputDir) ? readdirSync(outputDir) : []) {
    const scenario = RESULT_DIR.exec(entry)?.[1];
    const file = join(outputDir, entry, 'checks.json');
    if (scenario !== undefined && existsSync(file)) results.set(scenario, JSON.parse(readFileSync(file, 'utf8')) as Check[]);
  }
  return results;
}

export function readBaseline(path: string): string[] {
  const entries = (parse(readFileSync(path, 'utf8')) as { authorization?: unknown } | null)?.authorization ?? [];
  if (!Array.isArray(entries) || entries.some((entry) => typeof entry !== 'string'))
    throw new Error(`${path}: 'authorization' must be a list of '<scenario>' or '<scenario>:<check-id>'`);
  return entries as string[];
}

export function judge(results: ReadonlyMap<string, Check[]>, baseline: readonly string[]): Judgement {
  const judgement: Judgement = { unexpected: [], stale: [], expected: [] };
  const wholeScenarios = new Set(baseline.filter((entry) => !entry.includes(':')));
  const listedChecks = new Set(baseline.filter((entry) => entry.includes(':')));
  for (const [scenario, checks] of results) {
    if (wholeScenarios.has(scenario)) {
      const passes = checks.length > 0 && !checks.some(notPassing);
      (passes ? judgement.stale : judgement.expected).push(scenario);
      continue;
    }
    for (const check of checks) {
      const entry = `${scenario}:${check.id}`;
      if (listedChecks.has(entry)) (notPassing(check) ? judgement.expected : judgement.stale).push(entry);
      else if (notPassing(check)) judgement.unexpected.push(entry);
    }
    if (checks.length === 0) judgement.unexpected.push(`${scenario} (no checks ran)`);
  }
  return judgement;
}
