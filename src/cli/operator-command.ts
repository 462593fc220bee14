// The shape every store-opening operator command shares (`npm run purge`, `npm run account`): its
// arguments parsed with node:util parseArgs, `--aws`, `--json` and `-h/--help` for all of them, a
// usage error (exit 2) before anything is opened, then the store opened (command-context.ts), the
// command run, and the store closed; a failure is one line on stderr and exit 1. A command states
// only its own options, how its arguments become its task, and what it does.
import { type ParseArgsOptionsConfig, parseArgs } from 'node:util';
import type { AppContext } from '../app/context/app-context.ts';
import { type Config, readConfig } from '../config.ts';
import { stderrLog } from '../log-sink.ts';
import { type CommandContext, openCommandContext, requireAwsSettings } from './command-context.ts';

const COMMON_OPTIONS = {
  aws: { type: 'boolean', default: false },
  json: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const satisfies ParseArgsOptionsConfig;

export interface CommandArgs {
  /** The command's own options, as parseArgs read them. */
  values: Readonly<Record<string, string | boolean | undefined>>;
  positionals: readonly string[];
  json: boolean;
}

export interface OpenedCommand {
  ctx: AppContext;
  config: Config;
  /** Where the table is: `in <region>` or `at <endpoint>`. */
  where: string;
  /** One progress line on stderr, after the command's name. */
  log(line: string): void;
}

export interface OperatorCommand<T> {
  /** The name every stderr line starts with. */
  name: string;
  help: string;
  /** Options beyond --aws, --json and --help. */
  options?: ParseArgsOptionsConfig;
  /** What to run, from the arguments; throws a usage error. */
  parse(args: CommandArgs): T;
  /** Runs the task; answers the exit status. */
  run(opened: OpenedCommand, task: T, args: CommandArgs): Promise<number>;
}

export const printLine = (text: string): void => void process.stdout.write(`${text}\n`);

export async function runOperatorCommand<T>(command: OperatorCommand<T>, argv: readonly string[]): Promise<number> {
  let args: CommandArgs;
  let task: T;
  let aws: boolean;
  try {
    const { values, positionals } = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: { ...command.options, ...COMMON_OPTIONS },
    });
    if (values.help === true) {
      printLine(command.help);
      return 0;
    }
    aws = values.aws === true;
    args = { values, positionals, json: values.json === true };
    task = command.parse(args);
    if (aws) requireAwsSettings();
  } catch (error) {
    stderrLog(`${command.name}: ${(error as Error).message}`);
    process.stderr.write(`\n${command.help}\n`);
    return 2;
  }

  let context: CommandContext | undefined;
  try {
    const config = readConfig();
    const log = (line: string): void => stderrLog(`${command.name}: ${line}`);
    context = await openCommandContext(config, aws, log);
    // The config the store was opened with: with --aws, the stack's table and buckets.
    return await command.run({ ctx: context.ctx, config: context.config, where: context.where, log }, task, args);
  } catch (error) {
    stderrLog(`${command.name}: ${(error as Error).message ?? String(error)}`);
    return 1;
  } finally {
    await context?.close();
  }
}
