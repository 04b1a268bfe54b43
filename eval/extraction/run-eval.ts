import { createLlm, type MemoryExtractor, OfflineExtractor } from '@engram/llm';
import { loadDevSet, type Split, SPLITS } from './dev-set';
import { evaluate } from './evaluate';
import { renderMisses, renderReport } from './report';

/**
 * npm run eval:extraction [-- --model <name>] [--split dev|held-out] [--misses] [--concurrency n]
 *
 * Without --model: the offline extractor (a few seconds, no network). With --model: the OpenAI path,
 * the same prompts, schema and answer checks as production, against OPENAI_BASE_URL with OPENAI_API_KEY.
 * --misses lists the turns where a label was missed or a prediction matched nothing.
 */
type Args = Readonly<{ model?: string; split?: Split; misses: boolean; concurrency: number }>;

function parseArgs(argv: readonly string[]): Args {
  const value = (flag: string) => {
    const index = argv.indexOf(flag);
    return index === -1 ? undefined : argv[index + 1];
  };
  const split = value('--split');
  if (split !== undefined && !(SPLITS as readonly string[]).includes(split)) {
    throw new Error(`--split must be one of ${SPLITS.join(', ')}`);
  }
  const model = value('--model');
  return {
    ...(model === undefined ? {} : { model }),
    ...(split === undefined ? {} : { split: split as Split }),
    misses: argv.includes('--misses'),
    concurrency: Number(value('--concurrency') ?? 4),
  };
}

function extractorFor(args: Args): { name: string; extractor: MemoryExtractor } {
  if (args.model === undefined) return { name: 'offline-rules', extractor: new OfflineExtractor() };
  const apiKey = process.env.OPENAI_API_KEY;
  if (apiKey === undefined || apiKey === '') {
    throw new Error('--model needs OPENAI_API_KEY (and OPENAI_BASE_URL for another endpoint)');
  }
  const baseUrl = process.env.OPENAI_BASE_URL;
  const llm = createLlm({ apiKey, model: args.model, ...(baseUrl ? { baseUrl } : {}) });
  return {
    name: `openai ${args.model}${baseUrl ? ` at ${baseUrl}` : ''}`,
    extractor: llm.extractor,
  };
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const turns = loadDevSet().filter(
    (turn) => args.split === undefined || turn.split === args.split,
  );
  const { name, extractor } = extractorFor(args);
  const scored = await evaluate(extractor, turns, args.model === undefined ? 1 : args.concurrency);
  process.stdout.write(`${renderReport(name, scored)}\n`);
  if (args.misses) process.stdout.write(`\n${renderMisses(scored)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
