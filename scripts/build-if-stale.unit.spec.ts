import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { staleReason, type BuildTarget } from './build-if-stale';

describe('build-if-stale: when a part must be built again', () => {
  let root: string;
  const target: BuildTarget = {
    sources: ['src', 'tsconfig.json'],
    output: 'dist/main.js',
    stamp: 'dist/.built',
    commands: [],
  };
  const builtAt = new Date('2026-01-01T12:00:00Z');
  const write = (path: string, at: Date) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), '');
    utimesSync(join(root, path), at, at);
  };
  const before = new Date(builtAt.getTime() - 60_000);
  const after = new Date(builtAt.getTime() + 1_000);

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'engram-stale-'));
    write('src/main.ts', before);
    write('src/deep/er/module.ts', before);
    write('tsconfig.json', before);
    write('dist/main.js', builtAt);
    write('dist/.built', builtAt);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('is up to date when no source changed since the stamp', () => {
    expect(staleReason(target, root)).toBeUndefined();
  });

  it('names the first source modified after the build started, however deep', () => {
    write('src/deep/er/module.ts', after);
    expect(staleReason(target, root)).toBe('src/deep/er/module.ts changed');
    write('src/deep/er/module.ts', before);
    write('tsconfig.json', after);
    expect(staleReason(target, root)).toBe('tsconfig.json changed');
    write('src/new-file.ts', after);
    expect(staleReason(target, root)).toBe('src/new-file.ts changed');
  });

  it('builds when there is no stamp (a failed or an older build) or no output', () => {
    rmSync(join(root, 'dist/.built'));
    expect(staleReason(target, root)).toBe('no previous build');
    write('dist/.built', builtAt);
    rmSync(join(root, 'dist/main.js'));
    expect(staleReason(target, root)).toBe('no previous build');
  });

  it('ignores tests and installed packages, which the build does not compile', () => {
    write('src/main.unit.spec.ts', after);
    write('src/node_modules/some-package/index.ts', after);
    expect(staleReason(target, root)).toBeUndefined();
  });
});
