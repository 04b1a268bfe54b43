import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { BUILT_CLI } from '../support/built-server';
import { countUserEvents, eventually, startTestApp, type TestApp } from '../support/test-app';

const TOOLS = [
  'get_context',
  'record_message',
  'recall_actions',
  'list_memories',
  'forget_memory',
  'propose_action',
  'update_action',
  'get_action',
  'list_pending_actions',
];

type Data = Record<string, unknown>;

/**
 * The agent tools over MCP, with the SDK's own client: Streamable HTTP at /mcp on the real API (a real
 * port), and stdio through the built `engram mcp` talking to the same API.
 */
describe('MCP server: /mcp (Streamable HTTP) and engram mcp (stdio)', () => {
  let t: TestApp;
  let origin: string;
  let agent: string;
  const clients: Client[] = [];

  beforeAll(async () => {
    t = await startTestApp();
    await t.app.listen(0, '127.0.0.1');
    origin = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    agent = await t.token({ userId: 'desktop', workspaceId: 'w9', roles: ['agent'] });
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await t.close();
  });

  async function connect(query = '', token = agent): Promise<Client> {
    const client = new Client({ name: 'engram-e2e', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${origin}/mcp${query}`), {
        requestInit: { headers: { Authorization: `Bearer ${token}` } },
      }),
    );
    clients.push(client);
    return client;
  }

  /** A successful call's structured data (it fails the test with the tool's message otherwise). */
  async function call(client: Client, name: string, args: Record<string, unknown>): Promise<Data> {
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    if (result.isError) throw new Error(`${name} refused: ${JSON.stringify(result.content)}`);
    expect(result.content[0]).toMatchObject({ type: 'text', text: expect.any(String) });
    return result.structuredContent as Data;
  }

  /** The data of a call the read models may not hold yet (undefined while it is refused). */
  const settled = (client: Client, name: string, args: Record<string, unknown>) => () =>
    call(client, name, args).catch(() => undefined);

  it('initializes as engram and lists every tool with its input schema and a required userId', async () => {
    const client = await connect();
    expect(client.getServerVersion()?.name).toBe('engram');
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(TOOLS);
    for (const tool of tools) {
      expect(tool.description).toEqual(expect.any(String));
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.inputSchema.required).toContain('userId');
    }
    const listed = (await fetch(`${origin}/v1/tools?format=mcp`).then((r) => r.json())) as {
      name: string;
      inputSchema: { properties: object };
    }[];
    expect(tools[1]!.inputSchema.properties).toEqual({
      ...listed[1]!.inputSchema.properties,
      userId: expect.objectContaining({ type: 'string' }),
    });
  });

  it('records a message that get_context then shows', async () => {
    const client = await connect();
    const recorded = await call(client, 'record_message', {
      userId: 'alice',
      sessionId: 's1',
      role: 'user',
      channel: 'desktop',
      text: 'Je préfère les réponses courtes.',
    });
    expect(recorded).toMatchObject({ messageId: expect.any(String), position: expect.any(Number) });
    const context = await eventually(
      settled(client, 'get_context', { userId: 'alice', sessionId: 's1' }),
      (data) => JSON.stringify(data ?? {}).includes('Je préfère les réponses courtes.'),
    );
    expect(JSON.stringify(context)).toContain('Je préfère les réponses courtes.');
  });

  it('lists the memories extracted from it, and forgets one', async () => {
    const client = await connect();
    const listed = await eventually(
      () => call(client, 'list_memories', { userId: 'alice' }),
      (data) => JSON.stringify(data).includes('courtes'),
    );
    const memory = (listed.items as Data[]).find((m) => String(m.content).includes('courtes'));
    expect(memory).toMatchObject({ memoryId: expect.any(String), status: 'approved' });
    const forgotten = await call(client, 'forget_memory', {
      userId: 'alice',
      memoryId: memory!.memoryId,
    });
    expect(forgotten).toMatchObject({ position: expect.any(Number) });
    const after = await eventually(
      () => call(client, 'list_memories', { userId: 'alice' }),
      (data) => !JSON.stringify(data).includes('courtes'),
    );
    expect(JSON.stringify(after)).not.toContain('courtes');
  });

  it('proposes an action, lists it as pending, confirms it, gets it and recalls it', async () => {
    const client = await connect();
    const proposed = await call(client, 'propose_action', {
      userId: 'bob',
      tool: 'gmail_send',
      target: 'delphine@acme.fr',
      summary: 'Relance facture Q2',
      channel: 'telegram',
    });
    const actionId = proposed.actionId as string;
    expect(actionId).toEqual(expect.any(String));
    const pending = await eventually(
      () => call(client, 'list_pending_actions', { userId: 'bob' }),
      (data) => JSON.stringify(data).includes(actionId),
    );
    expect(JSON.stringify(pending)).toContain(actionId);
    await call(client, 'update_action', {
      userId: 'bob',
      actionId,
      transition: 'confirm',
      channel: 'web',
    });
    const action = await eventually(
      settled(client, 'get_action', { userId: 'bob', actionId }),
      (data) => data?.status === 'confirmed',
    );
    expect(action).toMatchObject({ actionId, status: 'confirmed', tool: 'gmail_send' });
    const recalled = await call(client, 'recall_actions', { userId: 'bob', query: 'facture' });
    expect(recalled.actions).toEqual([expect.objectContaining({ actionId })]);
  });

  it('over HTTP too, reads what the same caller wrote just before, without polling', async () => {
    // Two requests, two stateless servers: the second read waits for the first write's position.
    const client = await connect();
    const proposed = await call(client, 'propose_action', {
      userId: 'carol',
      tool: 'calendar_create',
      summary: 'Dentiste jeudi 10 h',
      channel: 'web',
    });
    const action = await call(client, 'get_action', {
      userId: 'carol',
      actionId: proposed.actionId,
    });
    expect(action).toMatchObject({ actionId: proposed.actionId, status: 'pending' });
    await call(client, 'update_action', {
      userId: 'carol',
      actionId: proposed.actionId,
      transition: 'abort',
      channel: 'web',
    });
    const pending = await call(client, 'list_pending_actions', { userId: 'carol' });
    expect(JSON.stringify(pending)).not.toContain(String(proposed.actionId));
  });

  it('gives a bad argument back to the model as an isError result, and records nothing', async () => {
    const client = await connect();
    const before = await countUserEvents(t, 'w9', 'carol');
    const result = (await client.callTool({
      name: 'propose_action',
      arguments: { userId: 'carol', tool: 'gmail_send', channel: 'telegram', ttlSeconds: -1 },
    })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(result.content[0]).toMatchObject({
      type: 'text',
      text: expect.stringMatching(/summary/),
    });
    const missingUser = (await client.callTool({
      name: 'list_memories',
      arguments: {},
    })) as CallToolResult;
    expect(missingUser).toMatchObject({ isError: true, content: [{ text: /userId is required/ }] });
    expect(await countUserEvents(t, 'w9', 'carol')).toBe(before);
  });

  it('answers an unknown tool with an MCP error', async () => {
    const client = await connect();
    const error = await client
      .callTool({ name: 'drop_everything', arguments: { userId: 'alice' } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect(error).toMatchObject({ code: ErrorCode.InvalidParams });
  });

  it('acts for the user of ?userId= without a userId argument', async () => {
    const client = await connect('?userId=dave');
    const { tools } = await client.listTools();
    expect(tools.every((tool) => !tool.inputSchema.required?.includes('userId'))).toBe(true);
    const proposed = await call(client, 'propose_action', {
      tool: 'calendar_create',
      summary: 'Dentiste mardi',
      channel: 'desktop',
    });
    const action = await eventually(
      settled(client, 'get_action', { actionId: proposed.actionId }),
      (data) => data?.status === 'pending',
    );
    expect(action).toMatchObject({ actionId: proposed.actionId, status: 'pending' });
    expect(await countUserEvents(t, 'w9', 'dave')).toBeGreaterThan(0);
  });

  it('refuses a request without a token (401), with a user token (403), a bad ?userId= or a body that is not JSON-RPC (400)', async () => {
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'curl', version: '1' },
      },
    };
    const post = (query: string, headers: Record<string, string>) =>
      fetch(`${origin}/mcp${query}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
        body: JSON.stringify(initialize),
      });
    expect((await post('', {})).status).toBe(401);
    const user = await t.token({ userId: 'alice', workspaceId: 'w9', roles: ['user'] });
    expect((await post('', { authorization: `Bearer ${user}` })).status).toBe(403);
    const bad = await post('?userId=a%20b', { authorization: `Bearer ${agent}` });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { message: string }).message).toMatch(/userId/);
    const notJsonRpc = await fetch(`${origin}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${agent}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ hello: 'world' }),
    });
    expect(notJsonRpc.status).toBe(400);
    expect(await notJsonRpc.json()).toMatchObject({ error: { code: ErrorCode.ParseError } });
    const ok = await post('', { authorization: `Bearer ${agent}` });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ result: { serverInfo: { name: 'engram' } } });
    await expect(connect('', 'not-a-token')).rejects.toThrow(/401/);
  });

  it('answers GET and DELETE with 405: a stateless server has no stream and no session', async () => {
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(`${origin}/mcp?userId=dave`, {
        method,
        headers: { authorization: `Bearer ${agent}`, accept: 'text/event-stream' },
      });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
    }
  });

  /** A service key (issue 19) an admin created for the agent: its secret is answered once. */
  async function serviceKey(agentId: string): Promise<string> {
    const admin = await t.token({ userId: 'root', workspaceId: 'w9', roles: ['admin'] });
    const created = await fetch(`${origin}/v1/workspaces/w9/agents/${agentId}/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'desktop' }),
    });
    expect(created.status).toBe(201);
    return ((await created.json()) as { key: string }).key;
  }

  it('takes a service key as it takes an agent JWT', async () => {
    const client = await connect('?userId=frank', await serviceKey('claude-desktop'));
    const recorded = await call(client, 'record_message', {
      sessionId: 's1',
      role: 'user',
      channel: 'desktop',
      text: 'Bonjour avec une clé.',
    });
    expect(recorded.position).toEqual(expect.any(Number));
  });

  it('serves the same tools on stdio through the built engram mcp, for ENGRAM_USER', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BUILT_CLI, 'mcp'],
      // A service key does not name its workspace (a JWT does: its ws claim).
      env: {
        ENGRAM_URL: origin,
        ENGRAM_TOKEN: await serviceKey('cursor'),
        ENGRAM_WORKSPACE: 'w9',
        ENGRAM_USER: 'erin',
      },
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const client = new Client({ name: 'engram-e2e-stdio', version: '1' });
    await client.connect(transport);
    clients.push(client);
    expect(client.getServerVersion()).toEqual({
      name: 'engram',
      version: jest.requireActual<{ version: string }>('../../package.json').version,
    });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(TOOLS);
    expect(tools.every((tool) => !tool.inputSchema.required?.includes('userId'))).toBe(true);
    // Messages only: the worker's extraction for erin may land its own events at any moment.
    const before = await countUserEvents(t, 'w9', 'erin', 'MessageRecorded');
    const recorded = await call(client, 'record_message', {
      sessionId: 's1',
      role: 'user',
      channel: 'desktop',
      text: 'Bonjour depuis le bureau.',
    });
    expect(recorded).toMatchObject({ messageId: expect.any(String), position: expect.any(Number) });
    expect(await countUserEvents(t, 'w9', 'erin', 'MessageRecorded')).toBe(before + 1);
    // One process per client: its reads wait for its own writes (no polling here).
    const context = await call(client, 'get_context', { sessionId: 's1' });
    expect(JSON.stringify(context)).toContain('Bonjour depuis le bureau.');
    const refused = (await client.callTool({
      name: 'get_action',
      arguments: { actionId: 'not-a-uuid' },
    })) as CallToolResult;
    expect(refused).toMatchObject({ isError: true, content: [{ text: /actionId/ }] });
    const unknown = await client
      .callTool({ name: 'drop_everything', arguments: {} })
      .catch((e: unknown) => e);
    expect(unknown).toMatchObject({ code: ErrorCode.InvalidParams });
    expect(stderr).toContain('engram mcp: the tools of');
  });
});
