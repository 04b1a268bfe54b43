import type { ChatCompletionTool } from 'openai/resources/chat/completions';
import { ToolSchema } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { AGENT_TOOLS } from './agent-tools';
import { RECALL_ACTIONS_TOOL } from './recall-actions-tool';
import { renderTools, toAnthropicTool, toMcpTool, toOpenAiTool } from './render-tools';

describe('the agent tools', () => {
  it('are the nine tools of issue 19, each named once', () => {
    expect(AGENT_TOOLS.map((tool) => tool.name)).toEqual([
      'get_context',
      'record_message',
      'recall_actions',
      'list_memories',
      'forget_memory',
      'propose_action',
      'update_action',
      'get_action',
      'list_pending_actions',
    ]);
  });

  it.each(AGENT_TOOLS.map((tool) => [tool.name, tool] as const))(
    '%s: a described object schema that compiles, its required fields declared',
    (_name, tool) => {
      expect(tool.description.length).toBeGreaterThan(40);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.inputSchema.additionalProperties).toBe(false);
      for (const field of tool.inputSchema.required ?? []) {
        expect(tool.inputSchema.properties).toHaveProperty(field);
      }
      for (const property of Object.values(tool.inputSchema.properties)) {
        expect(property.description).toEqual(expect.any(String));
      }
      // The validator MCP clients check tool calls with.
      const validate = new AjvJsonSchemaValidator().getValidator(tool.inputSchema);
      expect(validate({ unknownField: 1 }).valid).toBe(false);
    },
  );

  it('take recall_actions from RECALL_ACTIONS_TOOL as it is', () => {
    const recall = AGENT_TOOLS.find((tool) => tool.name === 'recall_actions')!;
    expect(toOpenAiTool(recall)).toEqual(RECALL_ACTIONS_TOOL);
  });

  it('render as OpenAI function tools {type, function: {name, description, parameters}}', () => {
    const tools: ChatCompletionTool[] = AGENT_TOOLS.map(toOpenAiTool);
    for (const [index, tool] of tools.entries()) {
      const definition = AGENT_TOOLS[index]!;
      expect(tool).toEqual({
        type: 'function',
        function: {
          name: definition.name,
          description: definition.description,
          parameters: definition.inputSchema,
        },
      });
      expect(tool.type === 'function' && tool.function.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    }
    expect(renderTools(AGENT_TOOLS, 'openai')).toEqual(tools);
  });

  it('render as Anthropic tools {name, description, input_schema}', () => {
    for (const definition of AGENT_TOOLS) {
      const tool = toAnthropicTool(definition);
      expect(Object.keys(tool).sort()).toEqual(['description', 'input_schema', 'name']);
      expect(tool.input_schema).toBe(definition.inputSchema);
      expect(tool.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    }
    expect(renderTools(AGENT_TOOLS, 'anthropic')).toEqual(AGENT_TOOLS.map(toAnthropicTool));
  });

  it('render as MCP tools {name, description, inputSchema} that the MCP SDK accepts', () => {
    for (const definition of AGENT_TOOLS) {
      const tool = toMcpTool(definition);
      expect(Object.keys(tool).sort()).toEqual(['description', 'inputSchema', 'name']);
      expect(ToolSchema.parse(JSON.parse(JSON.stringify(tool)))).toMatchObject(tool);
    }
    expect(renderTools(AGENT_TOOLS, 'mcp')).toEqual(AGENT_TOOLS.map(toMcpTool));
  });
});
