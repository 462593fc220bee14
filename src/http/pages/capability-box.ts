// The story page's "What running this does" box: the tier of the story's check and reproduce
// steps, what that tier means, the findings behind it by category and line, and "changed since
// publish" when readers ran other steps. Evidence strings are a stranger's commands, so like
// every other value they go through hono's escaping.
import { html } from 'hono/html';
import type { StoryView } from '../../app/queries/get-story.contract.ts';
import type { Html } from './layout.ts';

type Report = NonNullable<StoryView['capability']>;
type Finding = Report['findings'][number];

/** What a tier tells a reader before they let an agent run the steps (docs/capability.md). */
export const TIER_MEANINGS: Record<Report['tier'], string> = {
  T0: 'Nothing recognised in its steps. That is not a promise they are harmless.',
  T1: 'Runs programs or writes files on your machine.',
  T2: 'Talks to the network: downloads, package installs, clones or remote calls.',
  T3: "Touches what is hard to undo: secrets, persistence, deletion, root rights, sending data out, or your agent's own instructions and configuration. Read the steps before running them.",
  T4: 'Runs code that is not in the text, or hides what it runs. Read every step before running any.',
};

const CATEGORY_LABELS: Record<Finding['category'], string> = {
  remote_execution: 'Remote execution',
  obfuscation: 'Obfuscation',
  persistence: 'Persistence',
  secrets: 'Secrets access',
  destructive: 'Destructive',
  privilege: 'Privilege',
  exfiltration: 'Exfiltration',
  agent_directive: 'Addresses your agent',
  agent_config: "Changes your agent's configuration",
  network: 'Network',
  local_execution: 'Local execution',
  file_write: 'File writes',
};

/** Lines shown per category: the box stays short, and the raw markdown has the rest. */
const LINES_PER_CATEGORY = 5;

export function capabilityBox(capability: StoryView['capability']): Html {
  if (capability === null) {
    return html`<section class="card capability" aria-label="What running this does" data-tier="none">
<h2>What running this does</h2>
<p>Not scanned: this story was last edited before lorebook scanned stories' steps.</p>
</section>`;
  }
  return html`<section class="card capability" aria-label="What running this does" data-tier="${capability.tier}"${capability.changed_since_publish ? html` data-changed="true"` : ''}>
<h2>What running this does</h2>
${changedSincePublish(capability.drift)}<p><span class="badge tier tier-${capability.tier}">${capability.tier}</span> ${TIER_MEANINGS[capability.tier]}</p>
${categoryList(capability)}
<p class="fine-print">Scanned by lorebook's capability scanner ${capability.scanner_version}: it discloses what the check and reproduce steps do, it does not certify them.</p>
</section>`;
}

/**
 * Readers who reproduced the story ran other steps than these since the story last changed (design.md#drift):
 * said first, because the tier below describes the text as published, not what readers ran.
 */
function changedSincePublish(drift: Report['drift']): Html | string {
  if (drift === null) return '';
  return html`<p class="changed"><strong>Changed since publish.</strong> Readers who reproduced it ran steps that differ from these (sha256 <code>${drift.sha256.slice(0, 12)}…</code>, since ${drift.since.slice(0, 10)}). Read the steps again before running them; the mark stays until the author edits the story.</p>
`;
}

function categoryList(capability: Report): Html | string {
  const byCategory = new Map<Finding['category'], Finding[]>();
  // Findings arrive sorted by line, so each category's list is too.
  for (const found of capability.findings) byCategory.set(found.category, [...(byCategory.get(found.category) ?? []), found]);
  if (byCategory.size === 0) return '';
  const rows = [...byCategory].map(([category, found]) => {
    const shown = found.slice(0, LINES_PER_CATEGORY);
    const more = found.length - shown.length;
    return html`<li data-category="${category}"><strong>${CATEGORY_LABELS[category]}</strong> (${found[0]?.tier}): ${shown.map(
      (item, index) => html`${index === 0 ? '' : '; '}line ${item.line} <code>${item.evidence}</code>`,
    )}${more > 0 ? ` and ${more} more` : ''}</li>`;
  });
  const omitted = capability.omitted_findings > 0 ? html`<li>${capability.omitted_findings} more findings not listed</li>` : '';
  return html`<ul class="findings">${rows}${omitted}</ul>`;
}
