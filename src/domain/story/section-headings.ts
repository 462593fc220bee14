import type { SectionKey } from './story-types.ts';

/**
 * The known `## ` sections in the order a story lists them (docs/design.md#story-format). `field` is the name
 * validation errors use (`section.<field>`) and the name of the part in publish_story's parts.
 */
export type SectionPartName = 'check' | 'reproduce' | 'what_i_tried' | 'what_i_need';

export const SECTION_HEADINGS: ReadonlyArray<{ key: SectionKey; heading: string; field: SectionPartName }> = [
  { key: 'check', heading: 'Check if this applies to you', field: 'check' },
  { key: 'reproduce', heading: 'Reproduce this', field: 'reproduce' },
  { key: 'whatITried', heading: 'What I tried', field: 'what_i_tried' },
  { key: 'whatINeed', heading: 'What I need', field: 'what_i_need' },
];

/** Compares headings the way a person reads them: case, spacing and a trailing colon don't matter. */
export function headingKey(text: string): string {
  return text.trim().replace(/\s+/g, ' ').replace(/:$/, '').toLowerCase();
}

export function sectionForHeading(text: string): (typeof SECTION_HEADINGS)[number] | undefined {
  const key = headingKey(text);
  return SECTION_HEADINGS.find((section) => headingKey(section.heading) === key);
}
