import type { ChatCompletionTool } from 'openai/resources/chat/completions';
import { RECALL_ACTIONS_TOOL } from './recall-actions-tool';

describe('RECALL_ACTIONS_TOOL', () => {
  it('declares a read-only function with optional query, status and days', () => {
    expect(RECALL_ACTIONS_TOOL).toEqual({
      type: 'function',
      function: {
        name: 'recall_actions',
        description: expect.stringContaining('Read-only'),
        parameters: {
          type: 'object',
          properties: {
            query: { type: 'string', description: expect.any(String) },
            status: {
              type: 'string',
              enum: ['pending', 'confirmed', 'executed', 'aborted', 'failed', 'expired'],
              description: expect.any(String),
            },
            days: {
              type: 'integer',
              minimum: 1,
              maximum: 90,
              default: 30,
              description: expect.any(String),
            },
          },
          additionalProperties: false,
        },
      },
    });
    expect(RECALL_ACTIONS_TOOL.function.description).toMatch(/older than/);
    expect(RECALL_ACTIONS_TOOL.function.parameters).not.toHaveProperty('required');
  });

  it('is a tool the OpenAI client accepts', () => {
    const tool: ChatCompletionTool = RECALL_ACTIONS_TOOL;
    expect(JSON.parse(JSON.stringify(tool))).toEqual(RECALL_ACTIONS_TOOL);
  });
});
