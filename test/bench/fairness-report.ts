// BENCHMARKS.md §11: the victim's latencies under each attack as ratios of the same calls with no
// attacker, measured in the same run (fairness.ts), and the server's peak RSS against its idle RSS.
import { CALL_KINDS, type CallKind, type FairnessRun, type PhaseRun } from './fairness.ts';
import type { FairnessRuns } from './fairness-section.ts';
import { mib, ms, percentile, ratio } from './stats.ts';

const TARGET = 2;

const PHASE_NAMES: Record<PhaseRun['phase'], string> = {
  alone: 'no attacker (the reference for the row below)',
  scans: "12 anonymous heavy scans in flight (the issue's 63 KB of one-character paragraphs)",
  'costly-scans': '12 anonymous scans of the costliest text the limits accept (240 KB, ~1.7 s each) in flight',
  bodies: '40 oversized bodies (7 MB, bogus token) in flight',
  images: '6 heavy images in flight (one account)',
  all: 'the costliest scans, the bodies and the images at once',
};

function table(run: FairnessRun): string[] {
  /** Each attack's reference: the victim alone, measured just before it. */
  const referenceOf = (phase: PhaseRun): PhaseRun | undefined =>
    run.phases.slice(0, run.phases.indexOf(phase)).findLast((earlier) => earlier.phase === 'alone');
  const cell = (phase: PhaseRun, kind: CallKind, at: number): string => {
    const value = percentile(phase.latencies[kind], at);
    const reference = referenceOf(phase);
    if (phase.phase === 'alone' || reference === undefined) return `${ms(value)} ms`;
    const times = value / percentile(reference.latencies[kind], at);
    return `${ms(value)} ms (**${ratio(times)}**${times <= TARGET ? '' : ' ✗'})`;
  };
  /**
   * Peak RSS against the server's RSS at rest just before the phase, with the same stories and
   * heaps: the target is under TARGET×. The ratio to the idle of the run's start follows, for
   * context: a server with no attacker at all grows 1.3–1.9× past that one as the victim's stories
   * pile up (BENCHMARKS.md §11).
   */
  const rssCell = (phase: PhaseRun): string => {
    const times = phase.peakRssBytes / phase.idleBeforeBytes;
    return `${mib(phase.peakRssBytes)} (**${ratio(times)}**${times < TARGET ? '' : ' ✗'} of ${mib(phase.idleBeforeBytes)}; ${ratio(phase.peakRssBytes / run.idleRssBytes)} of the start's)`;
  };
  /** The phase's slowest call: a victim calling one after another makes fewer calls while it waits, so a p99 can hide a stall of seconds. */
  const slowest = (phase: PhaseRun): string => {
    const [kind, value] = CALL_KINDS.map((kind) => [kind, Math.max(0, ...phase.latencies[kind])] as const).reduce((a, b) =>
      b[1] > a[1] ? b : a,
    );
    return `${kind} ${ms(value)} ms`;
  };
  return [
    `| victim beside | ${CALL_KINDS.map((kind) => `${kind} p50 | ${kind} p99`).join(' | ')} | slowest call | victim refused | attack answers (status: count) | peak RSS / idle just before; / idle at the start; the snapshot job's process beside it | serving thread: on a core / waiting for one (ms a second) |`,
    `|---|${CALL_KINDS.map(() => '---|---').join('|')}|---|---|---|---|---|`,
    ...run.phases.map(
      (phase, index) =>
        `| ${PHASE_NAMES[phase.phase]}${index === 1 && phase.phase === 'all' ? ", the run's first attack (the server fresh from its start)" : ''} | ${CALL_KINDS.map((kind) => `${cell(phase, kind, 50)} | ${cell(phase, kind, 99)}`).join(' | ')} | ${slowest(phase)} | ${phase.victimFailures} | ${Object.entries(
          phase.attackStatuses,
        )
          .map(([status, count]) => `${status}: ${count}`)
          .join(
            ', ',
          )} | ${rssCell(phase)}${phase.jobPeakRssBytes > 0 ? `; ${mib(phase.jobPeakRssBytes)}` : ''} | ${phase.servingThread.ranMsPerSecond.toFixed(0)} / ${phase.servingThread.waitedMsPerSecond.toFixed(0)} |`,
    ),
  ];
}

export function fairnessSection(runs: FairnessRuns | undefined): string[] {
  if (runs === undefined) return [];
  const rounds = runs.pool.phases[0]?.latencies.publish.length ?? 0;
  return [
    '## 11. Fairness under attack',
    '',
    `Command: \`npm run bench:fairness\` (\`test/bench/fairness.ts\`). A real \`npm start\` with its default settings (rate limits included; docs/design.md#fair-cpu) serves a victim making ${rounds} rounds of ordinary calls one after another — a tiny publish (with a token), its get_story, the first render of its page — while strangers attack from other loopback addresses and another account, in a process of their own (as on machines of their own: their client work never delays the victim's timing); attackers re-send at once after an answer and 100 ms after a refusal. Each cell is the victim's p50 or p99 and its ratio to the same calls with no attacker measured just before it, in the same run (target ≤ ${TARGET}×; ✗ marks a miss). The slowest call is the phase's slowest victim call: the victim calls one after another, so while one call waits it makes no others, and a p99 can hide a stall of seconds. Status 0 is a call cut after 30 s or a connection the server closed; a phase starts no victim round after 45 s. Peak RSS is the server's, sampled every 200 ms over the phase, against its RSS just before the phase (at rest since the phase before ended: the same stories, the same warmed heaps; target under ${TARGET}×, ✗ marks a miss), then against its idle RSS at the run's start (after two calls): a run's server holds more as its stories pile up and its heaps warm, with no attacker at all (the rows with none show it), so an attack's cost is its peak against the first. The search snapshot job runs in a process of its own (src/cli/job-process.ts), outside the server's RSS: its peak, when one ran in the phase, follows after a semicolon. The last column is the server's serving thread over the victim's rounds (\`/proc/<pid>/task/<pid>/schedstat\`, Linux): milliseconds a second on a core, and runnable but waiting for a core. The one-core runs hold the server (not the bench, the attackers or DynamoDB Local) to one core, as on a 1-vCPU machine, and measure what a second worker buys there. Idle RSS: ${mib(runs.pool.idleRssBytes)}.`,
    '',
    `One worker per core (the default):`,
    '',
    ...table(runs.pool),
    '',
    ...(runs.oneCore === undefined
      ? []
      : [
          `The server held to one core (\`taskset -c 0\`), the costliest scans: one worker (LOREBOOK_OFFLOAD_WORKERS=1, the default there before 2026-12-05); idle RSS ${mib(runs.oneCore.oneWorker.idleRssBytes)}:`,
          '',
          ...table(runs.oneCore.oneWorker),
          '',
          `The same with the default there, two workers; idle RSS ${mib(runs.oneCore.byDefault.idleRssBytes)}:`,
          '',
          ...table(runs.oneCore.byDefault),
          '',
        ]),
  ];
}
