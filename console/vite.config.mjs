// @ts-check
import { defineConfig } from 'vite';

/** The web console: a Preact single-page app served by the API under /console. */
export default defineConfig({
  root: import.meta.dirname,
  base: '/console/',
  logLevel: 'warn',
  // Vite 8 compiles TSX with Oxc: Preact's automatic JSX runtime, no plugin needed.
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: '../dist/console',
    emptyOutDir: true,
    target: 'es2022',
  },
});
