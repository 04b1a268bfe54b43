import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { createEngramMcpServer, type EngramMcpServerOptions } from './engram-mcp-server';
import type { EngramTools, McpToolDefinition } from './mcp-tool';
import { ToolCallFailed, ToolCallRefused } from './tool-errors';

const TOOLS: McpToolDefinition[] = [
  {
    name: 'record_message',
    description: 'Records a message',
    inputSchema: {
      type: 'object',
      properties: { text: { type: 'string' } },
      required: ['text'],
      additionalProperties: false,
    },
  },
  { name: 'list_memories', description: 'Lists memories', inputSchema: { type: 'object' } },
];

type Call = { name: string; args: Record<string, unknown>; userId: string };

/** A server on scripted tools, and the SDK's own client connected to it in memory. */
async function connect(
  callTool: EngramTools['callTool'],
  options: EngramMcpServerOptions = {},
): Promise<{ client: Client; calls: Call[] }> {
  const calls: Call[] = [];
  const server = createEngramMcpServer(
    {
      listTools: () => TOOLS,
      callTool: async (name, args, userId) => {
        calls.push({ name, args, userId });
        return callTool(name, args, userId);
      },
    },
    options,
  );
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'test', version: '1' });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  return { client, calls };
}

const answer: EngramTools['callTool'] = async () => ({
  data: { messageId: 'm1', position: 3 },
  text: 'Recorded.',
});

describe('createEngramMcpServer', () => {
  it('introduces itself as engram with the package version and a tools capability', async () => {
    const { client } = await connect(answer);
    expect(client.getServerVersion()).toEqual({
      name: 'engram',
      version: jest.requireActual<{ version: string }>('../../../package.json').version,
    });
    expect(client.getServerCapabilities()?.tools).toBeDefined();
    await client.close();
  });

  it('lists each tool with its JSON Schema, a required userId added when the connection names no user', async () => {
    const { client } = await connect(answer);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['record_message', 'list_memories']);
    expect(tools[0]!.inputSchema).toEqual({
      type: 'object',
      properties: {
        text: { type: 'string' },
        userId: expect.objectContaining({ type: 'string' }),
      },
      required: ['text', 'userId'],
      additionalProperties: false,
    });
    expect(tools[1]!.inputSchema.required).toEqual(['userId']);
    await client.close();
  });

  it('lists the schemas as given when the connection acts for one user', async () => {
    const { client } = await connect(answer, { userId: 'alice' });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.inputSchema)).toEqual(TOOLS.map((tool) => tool.inputSchema));
    await client.close();
  });

  it('runs a tool for the userId argument, without it in the arguments, and gives text and data', async () => {
    const { client, calls } = await connect(answer);
    const result = await client.callTool({
      name: 'record_message',
      arguments: { text: 'hi', userId: 'bob' },
    });
    expect(calls).toEqual([{ name: 'record_message', args: { text: 'hi' }, userId: 'bob' }]);
    expect(result).toEqual({
      content: [{ type: 'text', text: 'Recorded.' }],
      structuredContent: { messageId: 'm1', position: 3 },
    });
    await client.close();
  });

  it("runs a tool for the connection's user, accepting the same userId and refusing another", async () => {
    const { client, calls } = await connect(answer, { userId: 'alice' });
    await client.callTool({ name: 'record_message', arguments: { text: 'a' } });
    await client.callTool({ name: 'record_message', arguments: { text: 'b', userId: 'alice' } });
    const other = await client.callTool({
      name: 'record_message',
      arguments: { text: 'c', userId: 'bob' },
    });
    expect(calls.map((call) => [call.userId, call.args])).toEqual([
      ['alice', { text: 'a' }],
      ['alice', { text: 'b' }],
    ]);
    expect(other.isError).toBe(true);
    expect(other.content).toEqual([
      { type: 'text', text: expect.stringContaining('acts for the user alice') },
    ]);
    await client.close();
  });

  it('refuses a call without a valid userId as a tool error, without running the tool', async () => {
    const { client, calls } = await connect(answer);
    const missing = await client.callTool({ name: 'list_memories', arguments: {} });
    const invalid = await client.callTool({ name: 'list_memories', arguments: { userId: 'a b' } });
    expect(missing).toMatchObject({ isError: true, content: [{ text: /userId is required/ }] });
    expect(invalid).toMatchObject({ isError: true, content: [{ text: /userId must be/ }] });
    expect(calls).toEqual([]);
    await client.close();
  });

  it("gives the tool's refusal to the model as an isError result with its message", async () => {
    const { client } = await connect(async () => {
      throw new ToolCallRefused('text must be a string', 400);
    });
    const result = await client.callTool({
      name: 'record_message',
      arguments: { text: 3, userId: 'bob' },
    });
    expect(result).toEqual({
      content: [{ type: 'text', text: 'text must be a string' }],
      isError: true,
    });
    await client.close();
  });

  it('answers an unknown tool with an InvalidParams protocol error, without running anything', async () => {
    const { client, calls } = await connect(answer);
    const error = await client
      .callTool({ name: 'drop_tables', arguments: { userId: 'bob' } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect(error).toMatchObject({ code: ErrorCode.InvalidParams });
    expect((error as Error).message).toContain('Unknown tool: drop_tables');
    expect(calls).toEqual([]);
    await client.close();
  });

  it("answers a tool's failure with an InternalError protocol error carrying its message and status", async () => {
    const { client } = await connect(async () => {
      throw new ToolCallFailed('Storage is temporarily unavailable; retry shortly', 503);
    });
    const error = await client
      .callTool({ name: 'list_memories', arguments: { userId: 'bob' } })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: ErrorCode.InternalError, data: { status: 503 } });
    expect((error as Error).message).toContain('Storage is temporarily unavailable');
    await client.close();
  });

  it('says no more than "Internal error" about an error the tools did not describe', async () => {
    const { client } = await connect(async () => {
      throw new Error('connection string postgres://secret@db');
    });
    const error = await client
      .callTool({ name: 'list_memories', arguments: { userId: 'bob' } })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: ErrorCode.InternalError });
    expect((error as Error).message).not.toContain('secret');
    await client.close();
  });

  it('wraps data that is not an object, as structured content must be one', async () => {
    const { client } = await connect(async () => ({ data: ['a', 'b'], text: 'a, b' }));
    const result = await client.callTool({ name: 'list_memories', arguments: { userId: 'bob' } });
    expect(result.structuredContent).toEqual({ result: ['a', 'b'] });
    await client.close();
  });
});
