// Which folder of src/ may import which: the rules docs/architecture.md describes. Checked by
// test/architecture.test.ts; `npx depcruise src` prints the same verdict by hand.
// Type-only imports count (tsPreCompilationDeps): a cycle through types is still a cycle.

/** Forbids imports from `from` to anything in src/ outside `allowed` (regex alternatives, src/-relative). */
function onlyImports(name, from, allowed, comment) {
  return { name, comment, severity: 'error', from: { path: `^src/${from}` }, to: { path: '^src/', pathNot: `^src/(${allowed})` } };
}

/** Forbids imports from `from` to `to` (both src/-relative regexes). */
function never(name, from, to, comment) {
  return { name, comment, severity: 'error', from: { path: `^src/${from}` }, to: { path: `^src/${to}` } };
}

export default {
  forbidden: [
    {
      name: 'no-cycle',
      comment: 'No import cycle between files, type-only imports included.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    onlyImports('shared-is-a-leaf', 'shared/', 'shared/', 'shared/ holds cross-cutting helpers and depends on nothing else.'),
    onlyImports('api-on-shared', 'api/', 'api/|shared/', 'The contract and its client stand on shared/ alone.'),
    onlyImports('mcp-over-the-api', 'mcp/', 'mcp/|api/|shared/', 'The MCP tools speak REST through a caller port; the service and the CLI hand them one.'),
    onlyImports('engine-on-contract', 'engine/', 'engine/|api/types\\.ts$|shared/', 'The engine reads documents; it knows the wire types, not the service or the daemon.'),
    onlyImports('outputs-on-contract', 'outputs/', 'outputs/|api/types\\.ts$|shared/', 'Writers turn extracted data into files; they know nothing of who asked.'),
    onlyImports(
      'service-uses-engine-entry',
      'service/',
      'service/|api/|outputs/|shared/|engine/index\\.ts$|mcp/',
      'The service reaches the engine through its public entry only.',
    ),
    onlyImports(
      'daemon-talks-to-a-service',
      'daemon/',
      'daemon/|api/|outputs/|shared/|service/index\\.ts$',
      'The daemon talks to a service over HTTP; it loads the embedded one through its entry and nothing else of it.',
    ),
    never(
      'service-parts-take-narrow-deps',
      'service/(routes/(?!index\\.ts$)|usecases/|jobs/|store/|mail/)',
      'service/(context|components|index)\\.ts$',
      'Routes, usecases, jobs, store and mail get the pieces they use, never the whole service context (routes/index.ts is wiring).',
    ),
    onlyImports('store-below-the-service', 'service/store/', 'service/store/|service/service-error\\.ts$|api/|shared/', 'The store keeps rows and files; it knows no route, usecase or job.'),
    never('routes-through-usecases', 'service/(usecases|jobs|store|mail)/', 'service/(routes|http)/', 'HTTP is one way in; what lies below it does not know it.'),
    never('nothing-imports-cli', '(?!cli/)', 'cli/', 'Commands sit on top; nothing below calls up into them.'),
    onlyImports('ledger-stands-alone', 'daemon/ledger/', 'daemon/ledger/|shared/', 'The ledger port and its adapters depend on no other part of the daemon.'),
    onlyImports(
      'config-stands-alone',
      'daemon/config/',
      'daemon/config/|shared/|api/definition-rules\\.ts$',
      'Config is read and validated once, knowing nothing of its readers; Workflow and Classifier definitions follow the spec\'s own rules.',
    ),
    onlyImports(
      'inputs-below-intake-and-pipeline',
      'daemon/inputs/',
      'daemon/(inputs|config|ledger)/|shared/',
      'File checks and disposition are shared by intake and pipeline, and import neither.',
    ),
    onlyImports(
      'intake-feeds-the-ledger',
      'daemon/intake/',
      'daemon/(intake|inputs|config|ledger)/|shared/',
      'Intake records files in the ledger; it never calls the pipeline or the daemon that wires them.',
    ),
    never('folder-and-mail-intake-apart', 'daemon/intake/folder/', 'daemon/intake/mail/', 'Each intake source stands alone.'),
    never('mail-and-folder-intake-apart', 'daemon/intake/mail/', 'daemon/intake/folder/', 'Each intake source stands alone.'),
    onlyImports(
      'definitions-on-config-and-api',
      'daemon/definitions/',
      'daemon/(definitions|config)/|api/|shared/',
      'Workflow and Classifier definitions are planned and applied through the client; they know no intake, pipeline or ledger.',
    ),
    onlyImports(
      'notify-hears-events',
      'daemon/notify/',
      'daemon/(notify|config|ledger)/|shared/',
      'Alerts learn of events through their sink; they call no intake, pipeline or service.',
    ),
    never('only-the-daemon-wires-notify', 'daemon/(?!notify/)[^/]+/', 'daemon/notify/', 'Sources report through ports of their own; daemon.ts wires them to the notifier.'),
    onlyImports(
      'health-observes-from-outside',
      'daemon/health/',
      'daemon/(health|ledger)/|api/|shared/',
      'Health and metrics observe the ledger and the client; the daemon hands them the rest as plain values.',
    ),
    onlyImports(
      'reload-below-the-daemon',
      'daemon/reload/',
      'daemon/(reload|config|ledger|pipeline|intake)/|api/|shared/',
      'A reload re-wires the parts it is handed; it does not know the daemon that assembled them.',
    ),
    onlyImports(
      'systemd-reads-state',
      'daemon/systemd/',
      'daemon/(systemd|ledger|pipeline)/|shared/',
      'systemd notifications report what the ledger and the pipeline say; they steer nothing.',
    ),
    never('pipeline-below-the-daemon', 'daemon/pipeline/', 'daemon/(intake/|[^/]+\\.ts$)', 'The pipeline works from the ledger; it does not know where inputs came from.'),
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist)/' },
  },
};
