import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Engram's version, from the repository's package.json: found by walking up from this file, which
 * works from the sources and from dist/ alike (importing the JSON would copy it into dist/).
 */
export function engramVersion(from: string = __dirname): string {
  for (let directory = from; ; directory = dirname(directory)) {
    const file = join(directory, 'package.json');
    if (existsSync(file)) {
      const { name, version } = JSON.parse(readFileSync(file, 'utf8')) as {
        name?: unknown;
        version?: unknown;
      };
      if (name === 'engram' && typeof version === 'string') return version;
    }
    if (dirname(directory) === directory) return '0.0.0';
  }
}
