/** Architecture rules checked by `npm run lint` (dependency-cruiser). */

/** The layers, lowest first, and what each may not know of those above it. */
const LAYERS = [
  [
    'libs',
    'the bottom layer (domain, adapters, crypto, llm, …): it knows no read model and nothing above',
  ],
  ['projections', 'read models are applied from events alone: no reactor, runtime or app in them'],
  [
    'process-managers',
    'reactors and jobs are given their dependencies; the runtime that wires them sits above',
  ],
  ['platform', 'the runtime shared by the apps knows none of them'],
  ['apps', 'the processes: the top'],
];

/** One rule per layer: nothing in it imports a layer above (the order is written once, above). */
function layerRules() {
  return LAYERS.slice(0, -1).map(([layer, comment], index) => {
    const above = LAYERS.slice(index + 1).map(([name]) => name);
    return {
      name: `${layer}-are-below-${above[0]}`,
      comment: `${comment[0].toUpperCase()}${comment.slice(1)}.`,
      severity: 'error',
      from: { path: `^${layer}/` },
      to: { path: `^(${above.join('|')})/` },
    };
  });
}
module.exports = {
  forbidden: [
    {
      name: 'pure-domain',
      comment: 'The domain is plain functions and types: no framework, no database, no I/O.',
      severity: 'error',
      from: { path: '^libs/domain/' },
      to: {
        path: '^(apps|projections|libs/(?!domain/))|node_modules/(@nestjs|typeorm|pg|@eventstore|openai|express)',
      },
    },
    // The layers, lowest first: a folder imports its own layer and the ones below, never one above.
    ...layerRules(),
    {
      name: 'apps-do-not-import-each-other',
      comment:
        'What two apps share (a use case, a runtime piece) lives in a layer below both, not in one of them.',
      severity: 'error',
      from: { path: '^apps/([^/]+)/' },
      to: { path: '^apps/', pathNot: '^apps/$1/' },
    },
    {
      name: 'projections-are-not-http',
      comment: 'Read models and their queries know nothing of NestJS.',
      severity: 'error',
      from: { path: '^projections/' },
      to: { path: 'node_modules/@nestjs' },
    },
    {
      name: 'console-speaks-http-only',
      comment: 'The web console uses the public HTTP API like any client: no server code in it.',
      severity: 'error',
      from: { path: '^console/' },
      to: { path: '^(apps|libs|projections)/' },
    },
    {
      name: 'client-stands-alone',
      comment:
        '@engram/client goes into other projects: HTTP only (Node built-ins), no server code, no dependency.',
      severity: 'error',
      from: { path: '^packages/' },
      to: {
        path: '^(apps|platform|process-managers|projections|libs|console|examples|test)/|node_modules/',
      },
    },
    {
      name: 'examples-use-the-client',
      comment:
        'The examples are what an agent developer writes: @engram/client (and a model SDK), nothing of the server.',
      severity: 'error',
      from: { path: '^examples/' },
      to: {
        path: '^(apps|platform|process-managers|projections|libs|console|test)/|node_modules/(?!openai/)',
      },
    },
    {
      name: 'observability-reads-plain-sources',
      comment:
        'Metrics and logs are given what they read (store, functions): they never reach into the platform, the read models or the process managers.',
      severity: 'error',
      from: { path: '^libs/observability/' },
      to: { path: '^(apps|platform|process-managers|projections|libs/database)/' },
    },
    {
      name: 'metrics-live-in-observability',
      comment:
        'prom-client stays in libs/observability: the event store and the rest report through hooks.',
      severity: 'error',
      from: {
        path: '^(apps|platform|process-managers|projections|libs)/',
        pathNot: '^libs/observability/',
      },
      to: { path: 'node_modules/prom-client' },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(\\.spec\\.ts$|^dist/|^test/)' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
    },
  },
};
