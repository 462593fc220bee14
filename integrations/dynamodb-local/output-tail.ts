// Keeps the last lines a child process printed, so a failed start can show why.

export interface OutputTail {
  /** Feeds a chunk of output; complete lines are kept, a partial line waits for its end. */
  push(chunk: string): void;
  lines(): string[];
}

export function createOutputTail(maxLines = 20): OutputTail {
  const kept: string[] = [];
  let partial = '';
  const keep = (line: string): void => {
    const trimmed = line.trimEnd();
    if (trimmed === '') return;
    kept.push(trimmed);
    if (kept.length > maxLines) kept.shift();
  };
  return {
    push(chunk) {
      const parts = (partial + chunk).split(/\r?\n/);
      partial = parts.pop() ?? '';
      parts.forEach(keep);
    },
    lines() {
      return partial.trim() === '' ? [...kept] : [...kept, partial.trimEnd()].slice(-maxLines);
    },
  };
}
