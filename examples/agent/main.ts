import { Agent } from './agent';
import { MODEL_SCRIPT, USER_TURNS } from './conversation';
import { startScriptedModel } from './scripted-model';

/**
 * `npm run example:agent`: the example agent against a running Engram (ENGRAM_URL, default
 * http://localhost:3000; ENGRAM_TOKEN, an agent token or service key; ENGRAM_WORKSPACE, default demo;
 * ENGRAM_USER, default alice), with a scripted model on a local port.
 */
async function main(): Promise<void> {
  const token = process.env.ENGRAM_TOKEN;
  if (!token) {
    throw new Error(
      'Set ENGRAM_TOKEN to an agent token: ENGRAM_TOKEN=$(npm run -s token -- --ws demo --user example-agent --roles agent)',
    );
  }
  const model = await startScriptedModel(MODEL_SCRIPT);
  try {
    const agent = new Agent({
      engramUrl: process.env.ENGRAM_URL ?? 'http://localhost:3000',
      engramToken: token,
      workspace: process.env.ENGRAM_WORKSPACE ?? 'demo',
      modelUrl: model.baseURL,
      model: 'scripted',
    });
    for (const turn of USER_TURNS) await agent.handle(process.env.ENGRAM_USER ?? 'alice', turn);
  } finally {
    await model.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
