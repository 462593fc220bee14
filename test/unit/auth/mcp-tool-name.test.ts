// The compiler refuses a tool without an access rule and scope (issue 29). Each case compiles the
// real modules with the project's tsconfig, with the edits a contributor might make held in memory
// (in place of a file, or as a copy beside it), and reads the errors `npm run typecheck` would print.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../../..');
const NAMES = join(root, 'src/auth/mcp-tool-name.ts');
const ACCESS = join(root, 'src/auth/access-rule.ts');
const REGISTRY = join(root, 'src/mcp/tools/index.ts');
const NEW_TOOL = join(root, 'src/mcp/tools/new-tool.ts');

/** The file of a tool a contributor adds. */
const NEW_TOOL_FILE = `import { z } from 'zod';
import { defineTool } from '../tool.ts';

export const newTool = defineTool({
  name: 'new_tool',
  title: 'A new tool',
  description: 'Added by a contributor.',
  inputSchema: z.object({}),
  outputSchema: z.object({}),
  annotations: { readOnlyHint: false },
  async run() {
    return {};
  },
});
`;

const options = ts.getParsedCommandLineOfConfigFile(
  join(root, 'tsconfig.json'),
  {},
  {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    },
  },
)?.options as ts.CompilerOptions;

/** Files read from disk are parsed once for every case (node_modules' declarations are most of them). */
const parsed = new Map<string, ts.SourceFile | undefined>();

/** The type errors in `checked`, as `path: TS<code> message`, with `edits` (file → its whole text) over the files on disk. */
function typeErrors(edits: Record<string, string>, checked: string[]): string[] {
  const host = ts.createCompilerHost(options);
  const fromDisk = host.getSourceFile.bind(host);
  host.fileExists = (file) => file in edits || ts.sys.fileExists(file);
  host.readFile = (file) => edits[file] ?? ts.sys.readFile(file);
  host.getSourceFile = (file, language) => {
    const text = edits[file];
    if (text !== undefined) return ts.createSourceFile(file, text, language);
    if (!parsed.has(file)) parsed.set(file, fromDisk(file, language));
    return parsed.get(file);
  };
  const program = ts.createProgram({ rootNames: checked, options, host });
  return checked.flatMap((file) => {
    const source = program.getSourceFile(file);
    return [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)].map(
      (diagnostic) =>
        `${file.slice(root.length + 1)}: TS${diagnostic.code} ${ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ')}`,
    );
  });
}

/** `file`'s text on disk with `from` replaced by `to`; `from` must be there, so a moved anchor fails loudly. */
function edited(file: string, from: string, to: string): string {
  const text = readFileSync(file, 'utf8');
  if (!text.includes(from)) throw new Error(`${file} no longer holds ${JSON.stringify(from)}`);
  return text.replace(from, to);
}

const REDACT_ENTRY = '  redact_story: redactStoryTool,\n';
const variant = (name: string) => join(root, `src/mcp/tools/index.${name}.ts`);
const REGISTRY_VARIANTS = {
  [variant('with-new-tool')]: edited(REGISTRY, REDACT_ENTRY, `${REDACT_ENTRY}  new_tool: newTool,\n`).replace(
    "import type { ToolDefinition } from '../tool.ts';\n",
    "import type { ToolDefinition } from '../tool.ts';\nimport { newTool } from './new-tool.ts';\n",
  ),
  [variant('left-out')]: edited(REGISTRY, REDACT_ENTRY, ''),
  [variant('misnamed')]: edited(REGISTRY, REDACT_ENTRY, '  redact_story: publishStoryTool,\n'),
};

const WITH_NAME = { [NAMES]: edited(NAMES, "  | 'redact_story';", "  | 'redact_story'\n  | 'new_tool';") };
const accessRule = (access: 'anonymous' | 'token', scope?: 'lorebook:read' | 'lorebook:write') => {
  const classified = edited(ACCESS, "  redact_story: 'token',\n", `  redact_story: 'token',\n  new_tool: '${access}',\n`);
  const withScope = (text: string) =>
    text.replace("  redact_story: 'lorebook:write',\n", `  redact_story: 'lorebook:write',\n  new_tool: '${scope}',\n`);
  return { ...WITH_NAME, [ACCESS]: scope === undefined ? classified : withScope(classified) };
};

/** One program for every case against the names on disk: the registry, its variants and the new tool. */
let againstDisk: string[] | undefined;
const errorsAgainstDisk = () => {
  againstDisk ??= typeErrors({ [NEW_TOOL]: NEW_TOOL_FILE, ...REGISTRY_VARIANTS }, [
    NAMES,
    ACCESS,
    REGISTRY,
    NEW_TOOL,
    ...Object.keys(REGISTRY_VARIANTS),
  ]);
  return againstDisk;
};
const errorsIn = (errors: string[], file: string) => errors.filter((error) => error.startsWith(`${file.slice(root.length + 1)}:`));

describe('the compiler refuses a tool without an access rule and scope', { timeout: 120_000 }, () => {
  it('the tool names, access rule and registry on disk compile', () => {
    expect(errorsIn(errorsAgainstDisk(), NAMES)).toEqual([]);
    expect(errorsIn(errorsAgainstDisk(), ACCESS)).toEqual([]);
    expect(errorsIn(errorsAgainstDisk(), REGISTRY)).toEqual([]);
  });

  it('a new tool without an access rule fails typecheck, in its file and where it is registered', () => {
    expect(errorsIn(errorsAgainstDisk(), NEW_TOOL)).toEqual([
      expect.stringMatching(/^src\/mcp\/tools\/new-tool\.ts: TS2322 Type '"new_tool"' is not assignable to type 'McpToolName'/),
    ]);
    expect(errorsIn(errorsAgainstDisk(), variant('with-new-tool'))).toEqual([
      expect.stringMatching(/TS2353 Object literal may only specify known properties, and 'new_tool' does not exist/),
    ]);
  });

  it('a tool name nobody classified fails typecheck at the access table', () => {
    expect(typeErrors(WITH_NAME, [ACCESS])).toContainEqual(
      expect.stringMatching(
        /^src\/auth\/access-rule\.ts: TS1360 .*'Record<McpToolName, "anonymous" \| "token">'\. {3}Property 'new_tool' is missing/,
      ),
    );
  });

  it('a tool that needs a token and has no scope fails typecheck at the scope table', () => {
    expect(typeErrors(accessRule('token'), [ACCESS])).toContainEqual(
      expect.stringMatching(
        /^src\/auth\/access-rule\.ts: TS1360 .*'Record<TokenTool, "lorebook:read" \| "lorebook:write">'\. {3}Property 'new_tool' is missing/,
      ),
    );
  });

  it('a public tool given a scope fails typecheck: only a tool that needs a token has one', () => {
    expect(typeErrors(accessRule('anonymous', 'lorebook:read'), [ACCESS])).toEqual([
      expect.stringMatching(/^src\/auth\/access-rule\.ts: TS2353 .*'new_tool' does not exist in type 'Record<TokenTool/),
    ]);
  });

  it('a public tool with its access rule compiles without a scope', () => {
    expect(typeErrors(accessRule('anonymous'), [ACCESS])).toEqual([]);
  });

  it('with its name, access rule and scope, the new tool compiles where it is defined and registered', () => {
    const files = { ...accessRule('token', 'lorebook:write'), [NEW_TOOL]: NEW_TOOL_FILE, ...REGISTRY_VARIANTS };
    expect(typeErrors(files, [NAMES, ACCESS, NEW_TOOL, variant('with-new-tool')])).toEqual([]);
  });

  it('a classified tool left out of the registry fails typecheck', () => {
    expect(errorsIn(errorsAgainstDisk(), variant('left-out'))).toContainEqual(
      expect.stringMatching(/TS1360 .*Property 'redact_story' is missing/),
    );
  });

  it("a tool registered under another tool's name fails typecheck", () => {
    expect(errorsIn(errorsAgainstDisk(), variant('misnamed'))).toContainEqual(
      expect.stringMatching(/TS2322 .*Type '"publish_story"' is not assignable to type '"redact_story"'/),
    );
  });
});
