const UNIT_SECONDS: Readonly<Record<string, number>> = { s: 1, m: 60, h: 3600, d: 86_400 };

/**
 * A length of time as written in the environment or on the command line: a number of seconds
 * (`3600`) or a whole number with a unit (`90s`, `30m`, `12h`, `7d`). Undefined when it is neither.
 */
export function parseDurationSeconds(raw: string): number | undefined {
  const match = /^(\d{1,9})\s*([smhd]?)$/.exec(raw.trim());
  if (!match) return undefined;
  return Number(match[1]) * UNIT_SECONDS[match[2] || 's']!;
}

/** `86400` → `24h`: how a duration is shown back (largest whole unit). */
export function formatDuration(seconds: number): string {
  for (const unit of ['d', 'h', 'm'] as const) {
    const size = UNIT_SECONDS[unit]!;
    if (seconds >= size && seconds % size === 0) return `${seconds / size}${unit}`;
  }
  return `${seconds}s`;
}
