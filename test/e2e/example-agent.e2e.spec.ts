import { EngramClient } from '@engram/client';
import { Agent } from '../../examples/agent/agent';
import { MODEL_SCRIPT, USER_TURNS } from '../../examples/agent/conversation';
import { startScriptedModel } from '../../examples/agent/scripted-model';
import { eventually, startTestApp, type TestApp } from '../support/test-app';

const WS = 'w-example';

/** The example agent (examples/agent) runs its conversation against the real API. */
describe('the example agent', () => {
  let t: TestApp;
  let baseUrl: string;

  beforeAll(async () => {
    t = await startTestApp();
    await t.app.listen(0, '127.0.0.1');
    baseUrl = await t.app.getUrl();
  });
  afterAll(() => t.close());

  it('records the messages, proposes the action on Telegram through a tool call and confirms it on the web', async () => {
    const model = await startScriptedModel(MODEL_SCRIPT);
    const lines: string[] = [];
    try {
      const agent = new Agent({
        engramUrl: baseUrl,
        engramToken: await t.token({ userId: 'example-agent', workspaceId: WS, roles: ['agent'] }),
        workspace: WS,
        modelUrl: model.baseURL,
        model: 'scripted',
        log: (line) => lines.push(line),
      });
      for (const turn of USER_TURNS) await agent.handle('alice', turn);
    } finally {
      await model.close();
    }

    const auditor = new EngramClient({
      baseUrl,
      workspace: WS,
      token: await t.token({ userId: 'auditor', workspaceId: WS, roles: ['auditor'] }),
    });
    const recorded = [];
    for await (const event of auditor.user('alice').export()) {
      if (event.type === 'MessageRecorded') recorded.push(event.data);
    }
    expect(recorded).toEqual([
      expect.objectContaining({ role: 'user', channel: 'telegram', text: USER_TURNS[0]!.text }),
      expect.objectContaining({ role: 'assistant', channel: 'telegram' }),
      expect.objectContaining({ role: 'user', channel: 'web', text: USER_TURNS[1]!.text }),
      expect.objectContaining({ role: 'assistant', channel: 'web' }),
    ]);

    const engram = new EngramClient({
      baseUrl,
      workspace: WS,
      token: await t.token({ userId: 'example-agent', workspaceId: WS, roles: ['agent'] }),
    });
    // Another client than the agent's: it waits for the read models to catch up.
    const {
      actions: [action],
    } = await eventually(
      () => engram.user('alice').recallActions({}),
      (recalled) => recalled.actions[0]?.status === 'confirmed',
    );
    expect(action).toMatchObject({
      tool: 'send_email',
      target: 'delphine@acme.fr',
      status: 'confirmed',
      requestedVia: 'telegram',
    });
    expect(action!.steps.map((step) => [step.status, step.channel])).toEqual([
      ['pending', 'telegram'],
      ['confirmed', 'web'],
    ]);
    // The model was given Engram's tools and the context as chat messages, the user's turn last.
    expect(model.requests[0]!.tools?.map((tool) => tool.function.name)).toContain('propose_action');
    expect(model.requests[0]!.messages.at(-1)).toEqual({
      role: 'user',
      content: USER_TURNS[0]!.text,
    });
    expect(lines.filter((line) => line.startsWith('  tool '))).toEqual([
      expect.stringContaining('tool propose_action('),
      expect.stringContaining('tool list_pending_actions('),
      expect.stringContaining('tool update_action('),
    ]);
  });
});
