import { ToolCallFailed, ToolCallRefused, type EngramTools } from '@engram/mcp';
import { toMcpTool } from '@engram/prompt-blocks';
import type { AgentToolbox, AgentToolCaller } from '../agent-tools/agent-toolbox';
import type { ErrorFilter } from '../http/error.filter';
import type { WrittenPositions } from './written-positions';

/**
 * The toolbox as the MCP server's tools, for one caller: its errors sorted the way HTTP answers them,
 * a 4xx the caller's to fix (shown to the model), a 5xx a failure; reads wait for the caller's own
 * earlier writes for that user (`positions`).
 */
export function toolboxTools(
  toolbox: AgentToolbox,
  caller: Omit<AgentToolCaller, 'userId' | 'minPosition'>,
  errors: ErrorFilter,
  positions: WrittenPositions,
): EngramTools {
  return {
    listTools: () => toolbox.definitions().map(toMcpTool),
    callTool: async (name, args, userId) => {
      try {
        const minPosition = positions.get(caller.principal, userId);
        const result = await toolbox.call(name, args, { ...caller, userId, minPosition });
        positions.remember(caller.principal, userId, result.data);
        return result;
      } catch (error) {
        const { status, message } = errors.describe(error);
        throw status < 500
          ? new ToolCallRefused(message, status)
          : new ToolCallFailed(message, status);
      }
    },
  };
}
