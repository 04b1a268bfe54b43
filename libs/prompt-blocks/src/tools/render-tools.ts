import type { AgentToolDefinition } from './agent-tool-definition';
import type { JsonSchemaObject } from './json-schema';

/** The shapes tool definitions are served in (`GET /v1/tools?format=`). */
export const TOOL_FORMATS = ['openai', 'anthropic', 'mcp'] as const;
export type ToolFormat = (typeof TOOL_FORMATS)[number];

/** A function tool of the OpenAI chat completions API. */
export type OpenAiTool = Readonly<{
  type: 'function';
  function: Readonly<{ name: string; description: string; parameters: JsonSchemaObject }>;
}>;

/** A client tool of the Anthropic messages API. */
export type AnthropicTool = Readonly<{
  name: string;
  description: string;
  input_schema: JsonSchemaObject;
}>;

/** A tool as MCP's tools/list answers it. */
export type McpTool = Readonly<{
  name: string;
  description: string;
  inputSchema: JsonSchemaObject;
}>;

export function toOpenAiTool(tool: AgentToolDefinition): OpenAiTool {
  return {
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
  };
}

export function toAnthropicTool(tool: AgentToolDefinition): AnthropicTool {
  return { name: tool.name, description: tool.description, input_schema: tool.inputSchema };
}

export function toMcpTool(tool: AgentToolDefinition): McpTool {
  return { name: tool.name, description: tool.description, inputSchema: tool.inputSchema };
}

export function renderTools(
  tools: readonly AgentToolDefinition[],
  format: ToolFormat,
): OpenAiTool[] | AnthropicTool[] | McpTool[] {
  switch (format) {
    case 'openai':
      return tools.map(toOpenAiTool);
    case 'anthropic':
      return tools.map(toAnthropicTool);
    case 'mcp':
      return tools.map(toMcpTool);
  }
}
