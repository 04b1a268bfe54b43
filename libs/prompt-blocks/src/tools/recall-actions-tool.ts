import { ACTION_STATUSES } from '@engram/domain';

/** Same bounds as the tool's `days` parameter, for the code that runs the query. */
export const RECALL_ACTIONS_DAYS = { min: 1, max: 90, default: 30 } as const;

/**
 * The recall_actions tool as the OpenAI chat completions API declares a function tool. Reading
 * only: the code behind it writes nothing and asks for no confirmation.
 */
export const RECALL_ACTIONS_TOOL = {
  type: 'function',
  function: {
    name: 'recall_actions',
    description:
      'Look up actions you proposed or carried out for the user, on any channel (Telegram, web ' +
      'chat, email), with their status and dates. Read-only: it changes nothing and needs no ' +
      'confirmation. Check the recent-actions block of the prompt first; call this tool when the ' +
      'user asks about an action older than that block, or one the block does not list.',
    parameters: {
      type: 'object',
      properties: {
        query: {
          type: 'string',
          description:
            'Optional free text matched against the tool name, the target and the summary of ' +
            'the action (a person, an email address, a subject...).',
        },
        status: {
          type: 'string',
          enum: [...ACTION_STATUSES],
          description: 'Optional: only actions with this status.',
        },
        days: {
          type: 'integer',
          minimum: RECALL_ACTIONS_DAYS.min,
          maximum: RECALL_ACTIONS_DAYS.max,
          default: RECALL_ACTIONS_DAYS.default,
          description: 'How many days back to search (default 30, at most 90).',
        },
      },
      additionalProperties: false,
    },
  },
} as const;
