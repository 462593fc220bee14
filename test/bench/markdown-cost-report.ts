// The "markdown cost" section of BENCHMARKS.md from one run of markdown-cost.ts.
import { MARKDOWN_COST_LIMITS, MARKDOWN_PARSE_BUDGET_MS, MARKDOWN_RENDER_BUDGET_MS } from '../../src/domain/story/story-limits.ts';
import type { MarkdownCostRun } from './markdown-cost.ts';
import { mib, ms, ratio } from './stats.ts';

export function markdownCostSection(run: MarkdownCostRun | undefined): string[] {
  if (run === undefined) return ['## 5. Markdown cost', '', '(skipped: over budget)', ''];
  const { home, loopHeldMs, views } = run;
  return [
    '## 5. Markdown cost: hostile and worst-accepted stories vs a plain story of the same size',
    '',
    "Over HTTP against the server process (`test/bench/markdown-cost.ts`): each of the issue's",
    'hostile shapes filling a 64 KiB story (`test/helpers/hostile-markdown.ts`) is published, then',
    'a plain prose story of the same size (the reference); each worst shape still accepted (every',
    'limit at its maximum, repeated to fill the story) is published and viewed once, next to a',
    'fresh plain story. GET / is requested in a loop all the while. The "renderer alone" column is',
    `micromark + GFM on the hostile text with no limits in front, stopped at ${ms(run.unlimitedBudgetMs)} ms (in a child process per text).`,
    '',
    '| hostile shape | answer | ms | plain story publish, ms | ratio | renderer alone, no limits |',
    '|---|---|---|---|---|---|',
    ...run.hostile.map(
      (row) =>
        `| ${row.name} | ${row.status} (${row.limit}) | ${ms(row.ms)} | ${ms(row.referenceMs)} | ${ratio(row.ms / row.referenceMs)} | ${row.unlimitedMs === undefined ? `> ${ms(run.unlimitedBudgetMs)} ms (stopped) or out of memory` : `${ms(row.unlimitedMs)} ms`} |`,
    ),
    '',
    '| worst accepted shape | publish ms | plain publish ms | ratio | first view ms | plain first view ms | ratio |',
    '|---|---|---|---|---|---|---|',
    ...run.accepted.map(
      (row) =>
        `| ${row.name} | ${ms(row.publishMs)} | ${ms(row.referencePublishMs)} | ${ratio(row.publishMs / row.referencePublishMs)} | ${ms(row.viewMs)} | ${ms(row.referenceViewMs)} | ${ratio(row.viewMs / row.referenceViewMs)} |`,
    ),
    '',
    '| GET / while the above ran | alone (3 s) | during | ratio |',
    '|---|---|---|---|',
    `| latency p50, ms | ${ms(home.aloneP50)} | ${ms(home.duringP50)} | ${ratio(home.duringP50 / home.aloneP50)} |`,
    `| latency max, ms | ${ms(home.aloneMax)} | ${ms(home.duringMax)} | ${ratio(home.duringMax / home.aloneMax)} |`,
    `| **longest the server's event loop was held**, ms | ${ms(loopHeldMs.alone)} | **${ms(loopHeldMs.during)}** | ${ratio(loopHeldMs.during / loopHeldMs.alone)} |`,
    '',
    `${home.answered} GET / answered during the load. Their latency waits on DynamoDB Local, which the`,
    '64 KiB writes keep busy on the same two cores; what markdown work could add is the time the',
    'event loop is held, since parsing and rendering run on the offload worker.',
    '',
    `**${views.count} views of the worst accepted story by page size** (${views.pageBytes} bytes of HTML): server RSS ${mib(views.rssBefore)} before (after a GC), ${mib(views.rssAfter)} after (${mib(views.rssAfter - views.rssBefore)} more), ${mib(views.rssAfterGc)} after a GC.`,
    '',
    `Limits (\`src/domain/story/story-limits.ts\`): nesting depth ${MARKDOWN_COST_LIMITS.nestingDepth}, block quotes and list items ${MARKDOWN_COST_LIMITS.containers}, emphasis delimiter runs ${MARKDOWN_COST_LIMITS.emphasisRuns}, closing brackets ${MARKDOWN_COST_LIMITS.labelEnds}, unclosed backtick runs ${MARKDOWN_COST_LIMITS.unclosedCodeRuns} and unclosed HTML comments and declarations ${MARKDOWN_COST_LIMITS.unclosedHtml} per paragraph, setext headings ${MARKDOWN_COST_LIMITS.setextHeadings}, lazy continuation lines ${MARKDOWN_COST_LIMITS.lazyLines}, table columns ${MARKDOWN_COST_LIMITS.tableColumns}, table cells ${MARKDOWN_COST_LIMITS.tableCells}, rendered size ${MARKDOWN_COST_LIMITS.renderedBytes} bytes; parse budget ${MARKDOWN_PARSE_BUDGET_MS} ms, render budget ${MARKDOWN_RENDER_BUDGET_MS} ms.`,
    '',
  ];
}
