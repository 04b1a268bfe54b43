import { join } from 'node:path';
import { ROOT, buildIfStale } from './build-if-stale';

/** What the process tests spawn (worker, API, the bench): built once per run, when a source changed. */
export const BUILT_WORKER = join(ROOT, 'dist', 'apps', 'worker', 'src', 'main.js');
export const BUILT_API = join(ROOT, 'dist', 'apps', 'api', 'src', 'main.js');

export function buildServerIfStale(): void {
  buildIfStale(
    ['apps', 'libs', 'projections', 'bench', 'tsconfig.json', 'tsconfig.build.json'].map((path) =>
      join(ROOT, path),
    ),
    BUILT_WORKER,
    [
      [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'],
      [
        join(ROOT, 'node_modules', 'tsc-alias', 'dist', 'bin', 'index.js'),
        '-p',
        'tsconfig.build.json',
      ],
    ],
  );
}
