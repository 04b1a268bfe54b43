import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { actingUser, withActingUser } from './acting-user';
import { engramVersion } from './engram-version';
import type { EngramTools, McpToolOutcome } from './mcp-tool';
import { ToolCallFailed, ToolCallRefused } from './tool-errors';

export type EngramMcpServerOptions = Readonly<{
  /** The user every call acts for (`?userId=`, ENGRAM_USER); without it each call names one. */
  userId?: string;
}>;

/**
 * The MCP server of Engram, the same for Streamable HTTP in the API and stdio in `engram mcp`: it
 * lists the tools and runs them through `tools`. The schemas are JSON Schema already, so the
 * low-level Server serves them as they are. A refusal (bad arguments, a conflict) is a tool result
 * with `isError`, which the model reads and can correct; an unknown tool and a failure are protocol
 * errors, for the client.
 */
export function createEngramMcpServer(
  tools: EngramTools,
  options: EngramMcpServerOptions = {},
): Server {
  const server = new Server(
    { name: 'engram', version: engramVersion() },
    {
      capabilities: { tools: {} },
      instructions:
        'Engram is the memory of the people you talk to: record each message, read the context before answering, propose actions and follow them up.',
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: (await tools.listTools()).map((tool) => withActingUser(tool, options.userId)),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const { name, arguments: given = {} } = request.params;
    const known = (await tools.listTools()).some((tool) => tool.name === name);
    if (!known) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
    try {
      const call = actingUser(given, options.userId);
      return toolResult(await tools.callTool(name, call.args, call.userId));
    } catch (error) {
      if (error instanceof ToolCallRefused) {
        return { content: [{ type: 'text', text: error.message }], isError: true };
      }
      if (error instanceof ToolCallFailed) {
        throw new McpError(ErrorCode.InternalError, error.message, { status: error.status });
      }
      // The tools say what went wrong with the two errors above; anything else is not for the client.
      throw new McpError(ErrorCode.InternalError, 'Internal error');
    }
  });
  return server;
}

/** The text for the model, the data as structured content (an object, as MCP wants it). */
function toolResult({ data, text }: McpToolOutcome): CallToolResult {
  const structured =
    data !== null && typeof data === 'object' && !Array.isArray(data)
      ? (data as Record<string, unknown>)
      : data === undefined
        ? undefined
        : { result: data };
  return {
    content: [{ type: 'text', text }],
    ...(structured ? { structuredContent: structured } : {}),
  };
}
