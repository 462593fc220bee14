// A section of BENCHMARKS.md that a command measures on its own (bench:sitemap) replaced in
// place: from its heading to the next `## ` heading. Where it is not there yet it goes before the
// closing comparison, so the numbered sections stay in order.
const CLOSING_HEADING = '\n## Where lorebook beats Powertools';

export function replaceSection(report: string, heading: string, section: string): string {
  const body = `${section.trimEnd()}\n\n`;
  const start = report.indexOf(`\n${heading}\n`);
  if (start >= 0) {
    const rest = report.slice(start + 1);
    const end = rest.slice(heading.length).search(/\n## /);
    return `${report.slice(0, start + 1)}${body}${end >= 0 ? rest.slice(heading.length + end + 1) : ''}`;
  }
  const closing = report.indexOf(CLOSING_HEADING);
  if (closing >= 0) return `${report.slice(0, closing + 1)}${body}${report.slice(closing + 1)}`;
  return `${report.trimEnd()}\n\n${body}`;
}
