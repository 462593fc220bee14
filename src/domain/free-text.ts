// Free text a caller writes beside the structured fields (a report's note, agent, env): one value
// per meaning, so a retry typed on another machine compares equal and fingerprints the same.

/** Free text as one value: NFC, LF line endings, trimmed; blank is the same as absent. */
export function normaliseText(text: string | undefined): string | undefined {
  const normal = text?.normalize('NFC').replace(/\r\n?/g, '\n').trim();
  return normal === undefined || normal === '' ? undefined : normal;
}
