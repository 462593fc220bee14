// The story page's aggregates card: reproductions by agent family and OS, median time and tokens
// (src/domain/reproduction-aggregates.ts decides what may show). Names come from strangers, so
// they go through hono's escaping like every other value; no figure is per person.
import { html } from 'hono/html';
import type { StoryView } from '../../app/queries/get-story.contract.ts';
import { type Breakdown, type Median, MIN_REPORTS_PER_BUCKET, MIN_REPORTS_PER_FIGURE } from '../../domain/reproduction-aggregates.ts';
import type { Html } from './layout.ts';
import { plural } from './page-format.ts';

const FIGURE = new Intl.NumberFormat('en', { maximumFractionDigits: 1 });

export function aggregatesCard(aggregates: StoryView['aggregates']): Html | string {
  const rows = [
    breakdownRow('agent-family', 'Agents', aggregates.by_agent_family),
    breakdownRow('os', 'Operating systems', aggregates.by_os),
    medianRow('duration-min', 'Median time', aggregates.duration_min, (value) => `${FIGURE.format(value)} min`),
    medianRow('tokens', 'Median tokens', aggregates.tokens, (value) => FIGURE.format(value)),
  ].filter((row) => row !== '');
  if (rows.length === 0) return '';
  return html`<section class="card aggregates" aria-label="Reproductions in aggregate">
<h2>Across reproductions</h2>
<dl>${rows}</dl>
<p class="fine-print">A figure shows once ${MIN_REPORTS_PER_FIGURE} reports carry it; a name only when ${MIN_REPORTS_PER_BUCKET} reports share it.</p>
</section>`;
}

function breakdownRow(field: string, label: string, breakdown: Breakdown | undefined): Html | string {
  if (breakdown === undefined) return '';
  const parts = breakdown.buckets.map((bucket) => `${bucket.name}: ${bucket.reports}`);
  if (breakdown.other > 0) parts.push(`other: ${breakdown.other}`);
  return html`<dt>${label}</dt><dd data-aggregate="${field}">${parts.join(' · ')} <span class="of">(${plural(breakdown.reports, 'report')})</span></dd>`;
}

function medianRow(field: string, label: string, median: Median | undefined, format: (value: number) => string): Html | string {
  if (median === undefined) return '';
  return html`<dt>${label}</dt><dd data-aggregate="${field}">${format(median.median)} <span class="of">(${plural(median.reports, 'report')})</span></dd>`;
}
