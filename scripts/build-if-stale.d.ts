/** Types of build-if-stale.js, for the tests that use it (it is plain JS: it runs before any build). */
export type BuildTarget = Readonly<{
  sources: readonly string[];
  output: string;
  stamp: string;
  commands: readonly (readonly string[])[];
}>;

export const ROOT: string;
export const TARGETS: Readonly<Record<'server' | 'console', BuildTarget>>;
export function staleReason(target: BuildTarget, root?: string): string | undefined;
export function buildIfStale(
  name: 'server' | 'console',
  options?: Readonly<{ always?: boolean }>,
): boolean;
