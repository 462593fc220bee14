// Where the server's log lines go. Lines quote values a caller or an upstream chose (an OAuth
// client's name, a request path, a PDS's error message), so each line passes escapeForLog on its
// way out: a line break or control character inside a value is written as `\n` or `\u{…}`, and
// one call is always exactly one physical line that no value can forge a second line after.
import { escapeForLog } from './domain/text-controls.ts';

export type LogLine = (line: string) => void;

/** A log that writes each line, escaped, with its newline, through `write`. */
const logTo =
  (write: (text: string) => void): LogLine =>
  (line) =>
    write(`${escapeForLog(line)}\n`);

export const stdoutLog: LogLine = logTo((text) => void process.stdout.write(text));
export const stderrLog: LogLine = logTo((text) => void process.stderr.write(text));
/** console.log (CloudWatch Logs on Lambda), one escaped line per call. */
export const consoleLog: LogLine = (line) => console.log(escapeForLog(line));
