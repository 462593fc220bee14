// The fairness bench's attacks (fairness.ts): what each stranger sends, how many in flight, and
// from which loopback address. Attackers re-send at once after an answer, and after a refusal
// (429, or a cut connection) wait 100 ms: a stranger who ignores retry_after_ms.
import { costliestAcceptedScan } from '../helpers/hostile-markdown.ts';
import { paletteNoise } from '../helpers/images.ts';
import { type Answer, send } from './fairness-calls.ts';

export type Attack = 'scans' | 'costly-scans' | 'bodies' | 'images';
export const ATTACKS: readonly Attack[] = ['scans', 'costly-scans', 'bodies', 'images'];

const SCANNER = '127.0.0.2';
const BODY_SENDER = '127.0.0.3';
const IMAGE_SENDER = '127.0.0.4';
const REFUSAL_PAUSE_MS = 100;
/** 63 KB of one-character paragraphs: the heavy scan (3-5 s then; the line limit refuses it now). */
const HEAVY_SCAN = 'x\n\n'.repeat(21_000);
const OVERSIZED_BODY = Buffer.alloc(7 * 1024 * 1024, 0x61);

const COSTLY_SCAN = costliestAcceptedScan();
/** A 4 MB palette PNG of 2000 × 2000 noise: re-encoded, then refused (as true colour it passes 5 MiB), so it costs every time. */
const HEAVY_IMAGE = await paletteNoise();

export interface AttackTarget {
  base: string;
  /** The image attacker's token: a fresh account each phase. */
  uploader: string;
}

/** Starts the attack's callers; each stops after its call in flight once `stop.stopped` is set. */
export function attackLoops(
  kind: Attack,
  target: AttackTarget,
  statuses: Record<string, number>,
  stop: { stopped: boolean },
): Promise<void>[] {
  const loop = async (call: () => Promise<Answer>): Promise<void> => {
    while (!stop.stopped) {
      const answer = await call();
      statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
      if (answer.status === 429 || answer.status === 0) await new Promise((resolve) => setTimeout(resolve, REFUSAL_PAUSE_MS));
    }
  };
  const times = (count: number, call: () => Promise<Answer>): Promise<void>[] => Array.from({ length: count }, () => loop(call));
  const { base, uploader } = target;
  if (kind === 'scans' || kind === 'costly-scans') {
    const body = kind === 'scans' ? HEAVY_SCAN : COSTLY_SCAN;
    return times(12, () =>
      send(`${base}/v1/capability`, { method: 'POST', headers: { 'Content-Type': 'text/markdown' }, body, from: SCANNER }),
    );
  }
  if (kind === 'bodies') {
    return times(40, () =>
      send(`${base}/mcp`, {
        method: 'POST',
        headers: { Authorization: 'Bearer x', 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
        body: OVERSIZED_BODY,
        from: BODY_SENDER,
      }),
    );
  }
  return times(6, () =>
    send(`${base}/v1/images`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${uploader}`, 'Content-Type': 'image/png' },
      body: HEAVY_IMAGE,
      from: IMAGE_SENDER,
    }),
  );
}
