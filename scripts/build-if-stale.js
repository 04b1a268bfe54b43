#!/usr/bin/env node
'use strict';
/**
 * Builds the server, the console and @engram/client only when a source is newer than their last
 * successful build, so `npm start`, `npm run token`, `npm run cli`, `npm run bench`, `npm run soak`
 * and the tests' setup start at once when nothing changed (a full build takes about 25 s).
 *
 *   node scripts/build-if-stale.js [--always] server [console]
 *
 * Plain CommonJS without dependencies: it runs before anything is built. A build leaves a stamp file
 * dated when it started (a source saved during a build is seen as newer next time); a failed build
 * leaves none, so the next run builds again.
 */
const { execFileSync } = require('node:child_process');
const { existsSync, readdirSync, statSync, utimesSync, writeFileSync } = require('node:fs');
const { join, relative } = require('node:path');

const ROOT = join(__dirname, '..');
const tool = (...path) => join(ROOT, 'node_modules', ...path);

/** What each part is built from, how, and what its build leaves. */
const TARGETS = {
  server: {
    sources: [
      'apps',
      'platform',
      'process-managers',
      'projections',
      'libs',
      'bench',
      'eval',
      'tsconfig.json',
      'tsconfig.build.json',
    ],
    output: 'dist/apps/api/src/main.js',
    stamp: 'dist/.server-built',
    commands: [
      [tool('typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'],
      [tool('tsc-alias', 'dist', 'bin', 'index.js'), '-p', 'tsconfig.build.json'],
    ],
  },
  // @engram/client, built as another project would use it (packages/client/dist, with declarations).
  client: {
    sources: ['packages/client/src', 'packages/client/tsconfig.json'],
    output: 'packages/client/dist/index.js',
    stamp: 'packages/client/dist/.client-built',
    commands: [[tool('typescript', 'bin', 'tsc'), '-p', 'packages/client/tsconfig.json']],
  },
  // The example agent, compiled against @engram/client's build as another project would be.
  example: {
    sources: ['examples', 'packages/client/dist/index.d.ts'],
    output: 'dist/examples/agent/main.js',
    stamp: 'dist/.example-built',
    commands: [[tool('typescript', 'bin', 'tsc'), '-p', 'examples/tsconfig.json']],
  },
  console: {
    sources: ['console'],
    output: 'dist/console/index.html',
    stamp: 'dist/.console-built',
    commands: [[tool('vite', 'bin', 'vite.js'), 'build', '--config', 'console/vite.config.mjs']],
  },
};

/** Tests are not part of a build: editing one does not make it stale. */
const IGNORED = /(^node_modules$|\.spec\.tsx?$)/;

/**
 * Why `target` must be built, or undefined when it is up to date: no output or stamp, or the first
 * source found that was modified after the stamp.
 */
function staleReason(target, root = ROOT) {
  const stamp = join(root, target.stamp);
  if (!existsSync(join(root, target.output)) || !existsSync(stamp)) return 'no previous build';
  const builtAt = statSync(stamp).mtimeMs;
  for (const source of target.sources) {
    const newer = newerThan(join(root, source), builtAt);
    if (newer !== undefined) return `${relative(root, newer)} changed`;
  }
  return undefined;
}

function newerThan(path, time) {
  if (!existsSync(path)) return undefined;
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs > time ? path : undefined;
  for (const entry of readdirSync(path)) {
    if (IGNORED.test(entry)) continue;
    const newer = newerThan(join(path, entry), time);
    if (newer !== undefined) return newer;
  }
  return undefined;
}

/** Builds `name` (a key of TARGETS) when it is stale, or always; says so on stderr. Throws when it fails. */
function buildIfStale(name, options = {}) {
  const target = TARGETS[name];
  if (target === undefined) throw new Error(`no build target "${name}" (${Object.keys(TARGETS)})`);
  const reason = options.always ? 'asked for' : staleReason(target);
  if (reason === undefined) return false;
  process.stderr.write(`Building the ${name} (${reason})…\n`);
  const startedAt = new Date();
  for (const [script, ...args] of target.commands) {
    try {
      execFileSync(process.execPath, [script, ...args], { cwd: ROOT, stdio: 'inherit' });
    } catch {
      throw new Error(`Building the ${name} failed: see the errors above`);
    }
  }
  const stamp = join(ROOT, target.stamp);
  writeFileSync(stamp, `built ${startedAt.toISOString()}\n`);
  utimesSync(stamp, startedAt, startedAt);
  process.stderr.write(
    `Built the ${name} in ${((Date.now() - startedAt.getTime()) / 1000).toFixed(1)} s\n`,
  );
  return true;
}

module.exports = { ROOT, TARGETS, staleReason, buildIfStale };

if (require.main === module) {
  const args = process.argv.slice(2);
  const always = args.includes('--always');
  try {
    for (const name of args.filter((arg) => arg !== '--always')) buildIfStale(name, { always });
  } catch (error) {
    process.stderr.write(`${error.message}\n`);
    process.exitCode = 1;
  }
}
