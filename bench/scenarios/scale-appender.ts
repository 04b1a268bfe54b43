import { messageWriter } from '../support/message-writer';
import { percentile } from '../support/stats';

/**
 * One API process of the scale scenario, forked by scale.ts: `appenders` loops record messages
 * through the API's write path (messageWriter: command, codec sealing, its own PostgreSQL pool and
 * group commit) — first a warm-up, then, on the parent's word, for `seconds`, so that every process
 * measures the same window; it closes its pools on the parent's word again.
 */
export type AppenderSetup = Readonly<{
  appUrl: string;
  /** The run's master key (base64): the parent's is drawn at random when it starts. */
  masterKey: string;
  users: number;
  appenders: number;
  warmupSeconds: number;
  seconds: number;
  /** Where this process's message indexes start (a message's user and text follow its index). */
  firstIndex: number;
}>;

export type AppenderReport = Readonly<{
  appended: number;
  errors: number;
  firstError?: string;
  seconds: number;
  /** CPU this process used during the window (user + system), in seconds. */
  cpuSeconds: number;
  latencyP50: number;
  latencyP99: number;
}>;

export type ToAppender =
  { kind: 'setup'; setup: AppenderSetup } | { kind: 'go' } | { kind: 'close' };
export type FromAppender = { kind: 'ready' } | { kind: 'done'; report: AppenderReport };

async function appendFor(
  record: (index: number) => Promise<unknown>,
  setup: AppenderSetup,
  seconds: number,
  next: () => number,
) {
  const latencies: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  const deadline = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: setup.appenders }, async () => {
      while (performance.now() < deadline) {
        const started = performance.now();
        try {
          await record(next());
          latencies.push(performance.now() - started);
        } catch (error) {
          errors += 1;
          firstError ??= error instanceof Error ? error.message : String(error);
        }
      }
    }),
  );
  return { latencies, errors, firstError };
}

function nextWord(kind: ToAppender['kind']): Promise<void> {
  return new Promise((resolve) => {
    const listener = (message: ToAppender) => {
      if (message.kind !== kind) return;
      process.off('message', listener);
      resolve();
    };
    process.on('message', listener);
  });
}

function send(message: FromAppender): void {
  process.send!(message);
}

async function run(setup: AppenderSetup): Promise<void> {
  const writer = messageWriter(
    { database: { appUrl: setup.appUrl }, plan: setup },
    Buffer.from(setup.masterKey, 'base64'),
  );
  let index = setup.firstIndex;
  const next = () => index++;
  try {
    // Warm-up: connections opened, the users' data keys cached, the JIT settled.
    await appendFor((i) => writer.record(i), setup, setup.warmupSeconds, next);
    send({ kind: 'ready' });
    await nextWord('go');
    const cpu = process.cpuUsage();
    const started = performance.now();
    const window = await appendFor((i) => writer.record(i), setup, setup.seconds, next);
    const seconds = (performance.now() - started) / 1000;
    const used = process.cpuUsage(cpu);
    send({
      kind: 'done',
      report: {
        appended: window.latencies.length,
        errors: window.errors,
        ...(window.firstError ? { firstError: window.firstError } : {}),
        seconds,
        cpuSeconds: (used.user + used.system) / 1e6,
        latencyP50: percentile(window.latencies, 50),
        latencyP99: percentile(window.latencies, 99),
      },
    });
    // The parent reads the CPU of this process's backends before they go.
    await nextWord('close');
  } finally {
    await writer.close();
  }
}

process.once('message', (message: ToAppender) => {
  if (message.kind !== 'setup') return;
  run(message.setup).then(
    () => process.disconnect(),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
});
