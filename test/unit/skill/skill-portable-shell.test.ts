// The skill's shell examples run on an agent's machine: a Mac (BSD sed, date, stat, …) as often as
// Linux (GNU coreutils). Each `sh` block of SKILL.md is scanned for a command or flag that only one
// of them has. Heredoc bodies (the story text an example writes) are data, not commands, and are
// not scanned.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SKILL_FILE, skillExamples } from '../../helpers/skill-examples.ts';

interface Rule {
  name: string;
  pattern: RegExp;
  instead: string;
}

/** Options of a command before the one that matters, e.g. `sed -n -E -i`. */
const opts = String.raw`(?:\s+-[A-Za-z]+)*\s+`;

const RULES: readonly Rule[] = [
  { name: 'sed -i', pattern: new RegExp(String.raw`\bsed${opts}(?:-[A-Za-z]*i|--in-place)`), instead: 'sed … f > f.new && mv f.new f' },
  { name: 'sed -r', pattern: new RegExp(String.raw`\bsed${opts}(?:-[A-Za-z]*r|--regexp-extended)`), instead: 'sed -E' },
  { name: 'grep -P', pattern: new RegExp(String.raw`\bgrep${opts}(?:-[A-Za-z]*P|--perl-regexp)`), instead: 'grep -E' },
  { name: 'date -d', pattern: new RegExp(String.raw`\bdate${opts}(?:-[A-Za-z]*d\b|--date)`), instead: 'the date from the server, or jq' },
  { name: 'readlink -f', pattern: new RegExp(String.raw`\breadlink${opts}-[A-Za-z]*f`), instead: 'cd "$(dirname f)" && pwd' },
  { name: 'xargs -r', pattern: new RegExp(String.raw`\bxargs${opts}(?:-[A-Za-z]*r|--no-run-if-empty)`), instead: 'a test before the call' },
  { name: 'stat -c', pattern: new RegExp(String.raw`\bstat${opts}(?:-[A-Za-z]*c|--format)`), instead: 'wc -c < f' },
  { name: 'base64 -w', pattern: new RegExp(String.raw`\bbase64${opts}(?:-[A-Za-z]*w|--wrap)`), instead: "base64 | tr -d '\\n'" },
  { name: 'find -printf', pattern: /\bfind\b.*\s-printf\b/, instead: 'find … -exec' },
  { name: 'a negative head count', pattern: new RegExp(String.raw`\bhead${opts}-[nc]\s*-\d`), instead: 'sed or awk' },
  { name: 'sha256sum, md5sum', pattern: /(?:^|[\s|;&(])(?:sha\d+sum|md5sum)\b/, instead: 'jq or curl, or shasum -a 256' },
  { name: 'timeout', pattern: /(?:^|[\s|;&(])timeout\s/, instead: 'curl --max-time' },
  { name: 'tac', pattern: /(?:^|[\s|;&(])tac\b/, instead: 'jq reverse' },
];

function withoutHeredocBodies(code: string): string[] {
  const kept: string[] = [];
  let closing: string | undefined;
  for (const line of code.split('\n')) {
    if (closing !== undefined) {
      if (line.trim() === closing) closing = undefined;
      continue;
    }
    kept.push(line);
    closing = /<<-?\s*['"]?(\w+)['"]?/.exec(line)?.[1];
  }
  return kept;
}

function gnuOrBsdOnly(code: string): string[] {
  return withoutHeredocBodies(code).flatMap((line) =>
    RULES.filter((rule) => rule.pattern.test(line)).map((rule) => `${rule.name} (use ${rule.instead}): ${line.trim()}`),
  );
}

describe("the skill's shell examples run on BSD (macOS) and GNU (Linux) tools alike", () => {
  it('no sh block of SKILL.md uses a command or flag only one of them has', () => {
    const found = skillExamples().flatMap((example) =>
      gnuOrBsdOnly(example.code).map((what) => `SKILL.md block at line ${example.line}: ${what}`),
    );
    expect(found).toEqual([]);
  });

  it('every shell block is tagged sh, so this scan and the e2e run of the examples both see it', () => {
    const fences = readFileSync(SKILL_FILE, 'utf8')
      .split('\n')
      .filter((line) => /^```(?:bash|shell|zsh|console)\b/.test(line));
    expect(fences).toEqual([]);
  });

  it.each([
    ["sed -i 's/a/b/' story.md"],
    ["sed -i '' 's/a/b/' story.md"],
    ["sed -n -i 's/a/b/p' story.md"],
    ["sed --in-place 's/a/b/' story.md"],
    ["sed -r 's/(a)+/b/' story.md"],
    ["grep -P '\\d+' story.md"],
    ['date -d yesterday +%F'],
    ['date --date=@0'],
    ['readlink -f story.md'],
    ['jq -r .slug list.json | xargs -r -n1 echo'],
    ['stat -c %s story.md'],
    ['base64 -w0 image.png'],
    ['find . -name "*.md" -printf "%p\\n"'],
    ['head -n -1 story.md'],
    ['sha256sum story.md'],
    ['timeout 10 curl -sS "$LOREBOOK_URL"'],
    ['tac story.md'],
  ])('catches `%s`', (line) => {
    expect(gnuOrBsdOnly(line)).not.toEqual([]);
  });

  it.each([
    ["sed 's/a/b/' story.md > story.md.new && mv story.md.new story.md"],
    ["sed -E 's/(a)+/b/' story.md"],
    ["sed -n 's/^title: //p' story.md"],
    ['date +%F'],
    ["grep -E 'a|b' story.md"],
    ['curl --fail-with-body -sS --max-time 10 "$LOREBOOK_URL/v1/skill"'],
    ['jq -r .slug published.json'],
    ['head -n 5 story.md'],
    ['DRAFT_KEY=$(uuidgen 2>/dev/null || cat /proc/sys/kernel/random/uuid)'],
  ])('lets the portable `%s` through', (line) => {
    expect(gnuOrBsdOnly(line)).toEqual([]);
  });

  it("a heredoc's body is the story's text, not commands; the lines after it are scanned again", () => {
    const code = ["cat > story.md <<'STORY'", 'The timeout was the problem, so I used sed -i.', 'STORY', "sed -i 's/a/b/' story.md"].join(
      '\n',
    );
    expect(gnuOrBsdOnly(code)).toEqual([`sed -i (use sed … f > f.new && mv f.new f): sed -i 's/a/b/' story.md`]);
  });
});
