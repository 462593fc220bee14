// What judging invisible characters costs on the worst 64 KiB texts a caller can send (every
// character a candidate): found at the door (findForbiddenChar, on the request thread) and shown
// by name (revealForbiddenChars, for text stored before the rule). The reference, measured in the
// same run on the same text, is the NFC normalisation every story already pays.
// Run: node test/bench/hidden-chars.ts
import { findForbiddenChar, revealForbiddenChars } from '../../src/domain/text-controls.ts';

const SIZE = 65_536;
const filled = (unit: string, head = ''): string => head + unit.repeat(Math.floor((SIZE - head.length) / unit.length));
const CASES: Record<string, string> = {
  'plain ASCII': filled('a'),
  'England flags': filled('🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}'),
  'ZWJ families': filled('👨‍👩‍👧‍👦'),
  'Persian with ZWNJ': filled('می‌خواهم '),
  'a tag run': filled('\u{E0041}'),
  'a selector run': filled('\u{E0150}', '😀'),
};
const ROUNDS = 20;

function msPer(run: () => unknown): number {
  for (let warm = 0; warm < 3; warm += 1) run();
  const start = performance.now();
  for (let round = 0; round < ROUNDS; round += 1) run();
  return (performance.now() - start) / ROUNDS;
}

console.log('| text (64 KiB) | NFC (reference) | find | ratio | reveal | ratio |\n|---|---|---|---|---|---|');
for (const [name, text] of Object.entries(CASES)) {
  const reference = msPer(() => text.normalize('NFC'));
  const find = msPer(() => findForbiddenChar(text));
  const reveal = msPer(() => revealForbiddenChars(text));
  const cell = (ms: number) => `${ms.toFixed(2)} ms`;
  console.log(
    `| ${name} | ${cell(reference)} | ${cell(find)} | ${(find / reference).toFixed(1)}× | ${cell(reveal)} | ${(reveal / reference).toFixed(1)}× |`,
  );
}
