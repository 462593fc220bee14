// One simple command of a shell block as the rules see it, whichever way it was read (parsed by
// unbash, or token-scanned when it could not be parsed).

export interface Redirection {
  /** `>`, `>>`, `<`, `&>`, … */
  operator: string;
  target: string;
}

export interface ShellCommand {
  /** The command's words, name first, quotes removed; wrappers such as `sudo` still in. */
  words: string[];
  redirects: Redirection[];
  /** Commands run inside `$(…)`, backticks or `<(…)` in the command's own words; `word` indexes `words` (-1: unknown). */
  substituted: Array<{ word: number; command: ShellCommand }>;
  /** Offset in the block's source where the command starts (for its line). */
  offset: number;
  /** The command's source text: the evidence. */
  text: string;
  /** True when unbash could not parse the text and the command was token-scanned. */
  tokenScanned: boolean;
}

export interface ShellReading {
  /** Every simple command in source order, nested ones (substitutions, `bash -c` strings) included. */
  commands: ShellCommand[];
  /** The members of each pipeline (`a | b | c`), in order. */
  pipelines: ShellCommand[][];
}
