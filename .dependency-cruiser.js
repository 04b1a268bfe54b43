/** Architecture rules checked by `npm run lint` (dependency-cruiser). */
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
    {
      name: 'libs-do-not-know-apps',
      severity: 'error',
      from: { path: '^(libs|projections)/' },
      to: { path: '^apps/' },
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
      name: 'observability-reads-plain-sources',
      comment:
        'Metrics and logs are given what they read (store, functions): they never reach into the platform, the read models or the process managers.',
      severity: 'error',
      from: { path: '^libs/observability/' },
      to: { path: '^(apps|projections|libs/(platform|process-managers|database))/' },
    },
    {
      name: 'metrics-live-in-observability',
      comment:
        'prom-client stays in libs/observability: the event store and the rest report through hooks.',
      severity: 'error',
      from: { path: '^(apps|libs|projections)/', pathNot: '^libs/observability/' },
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
