import { join } from 'node:path';
import { ROOT } from '../../scripts/build-if-stale';

/** What the process tests spawn (worker, API): built by the tests' global setup when stale. */
export const BUILT_WORKER = join(ROOT, 'dist', 'apps', 'worker', 'src', 'main.js');
export const BUILT_API = join(ROOT, 'dist', 'apps', 'api', 'src', 'main.js');
export const BUILT_CLI = join(ROOT, 'dist', 'apps', 'cli', 'src', 'main.js');
/** The export's render thread, as the built API starts it. */
export const BUILT_EXPORT_THREAD = join(ROOT, 'dist', 'libs', 'gdpr', 'src', 'export-thread.js');
