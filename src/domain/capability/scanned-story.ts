// A parsed story with its capability report: what publish and edit store, scanned once, where
// the story was parsed (the offload worker), so the report is bound to exactly the stored text.
import type { ParsedStory } from '../story/story-types.ts';
import type { CapabilityReport } from './report.ts';
import { scanParsedStory } from './scan.ts';

export interface ScannedStory extends ParsedStory {
  capability: CapabilityReport;
}

export function withCapability(story: ParsedStory): ScannedStory {
  return { ...story, capability: scanParsedStory(story) };
}
