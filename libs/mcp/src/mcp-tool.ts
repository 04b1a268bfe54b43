/** A tool as MCP lists it: its arguments described by a JSON Schema object. */
export type McpToolDefinition = Readonly<{
  name: string;
  description: string;
  inputSchema: Readonly<{
    type: 'object';
    properties?: Readonly<Record<string, object>>;
    required?: readonly string[];
    [keyword: string]: unknown;
  }>;
}>;

/** What a tool answers: `text` for the model to read, `data` for a program. */
export type McpToolOutcome = Readonly<{ data: unknown; text: string }>;

/**
 * The tools an Engram MCP server serves: in the API, the toolbox itself; in `engram mcp`, the API's
 * HTTP routes. `callTool` throws ToolCallRefused for the caller's mistakes and ToolCallFailed when the
 * tool could not run.
 */
export type EngramTools = Readonly<{
  listTools: () => Promise<readonly McpToolDefinition[]> | readonly McpToolDefinition[];
  callTool: (
    name: string,
    args: Record<string, unknown>,
    userId: string,
  ) => Promise<McpToolOutcome>;
}>;
