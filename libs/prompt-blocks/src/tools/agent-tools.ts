import {
  IDENTIFIER_PATTERN,
  LOCALES,
  MEMORY_KINDS,
  MESSAGE_ROLES,
  REPORTED_MEMORY_STATUSES,
} from '@engram/domain';
import type { AgentToolDefinition } from './agent-tool-definition';
import type { JsonSchema } from './json-schema';
import { RECALL_ACTIONS_TOOL } from './recall-actions-tool';

/** The transitions `update_action` takes, each one a route of today (`POST …/actions/{id}/confirm`…). */
export const ACTION_TRANSITIONS = ['confirm', 'execute', 'abort', 'fail'] as const;
export type ActionTransitionName = (typeof ACTION_TRANSITIONS)[number];

/** Pending actions a page of `list_pending_actions` holds at most. */
export const PENDING_ACTIONS_PAGE = { max: 100, default: 20 } as const;

/** The answer formats of `get_context`: the blocks (default) or role-tagged chat messages. */
export const CONTEXT_FORMATS = ['blocks', 'messages'] as const;
export type ContextFormat = (typeof CONTEXT_FORMATS)[number];

const identifier = (description: string): JsonSchema => ({
  type: 'string',
  pattern: IDENTIFIER_PATTERN.source,
  description,
});
const uuid = (description: string): JsonSchema => ({ type: 'string', format: 'uuid', description });
const jsonObject = (description: string): JsonSchema => ({
  type: 'object',
  additionalProperties: true,
  description,
});

const GET_CONTEXT: AgentToolDefinition = {
  name: 'get_context',
  description:
    'Get what Engram knows about the user for your next reply: the live window of the ' +
    'conversation, its rolling summary, approved memories, the identity card and recent actions, ' +
    'rendered as a system prompt within a token budget. Read-only. With format "messages" it ' +
    'answers role-tagged chat messages (a system message, then the live window); pass ' +
    'excludeMessageId to leave out the user turn you are about to send yourself.',
  inputSchema: {
    type: 'object',
    properties: {
      sessionId: identifier('The conversation whose live window and summary to include.'),
      agentId: identifier(
        'Your agent id: memory is left out when an admin switched it off for you.',
      ),
      locale: { type: 'string', enum: [...LOCALES], description: "Default: the workspace's." },
      maxTokens: {
        type: 'integer',
        minimum: 50,
        maximum: 200000,
        description: 'Token budget of the system prompt; older blocks are trimmed to fit.',
      },
      format: {
        type: 'string',
        enum: [...CONTEXT_FORMATS],
        default: 'blocks',
        description: 'blocks: every block and the system prompt; messages: chat messages.',
      },
      excludeMessageId: uuid('A message of the live window to leave out (the turn you send).'),
    },
    additionalProperties: false,
  },
};

const RECORD_MESSAGE: AgentToolDefinition = {
  name: 'record_message',
  description:
    'Record one message of the conversation (what the user said, or what you answered) so that ' +
    'Engram can remember it. Answers at once: memories are extracted in the background. ' +
    'messageId is an idempotency key: sending the same message again records nothing.',
  inputSchema: {
    type: 'object',
    properties: {
      sessionId: identifier('The conversation.'),
      role: { type: 'string', enum: [...MESSAGE_ROLES], description: 'Who said it.' },
      channel: identifier('Where it was said: telegram, web, email...'),
      text: {
        type: 'string',
        minLength: 1,
        maxLength: 32000,
        description: 'The message, verbatim.',
      },
      messageId: uuid('Idempotency key; generated when absent.'),
      agentId: identifier('Your agent id.'),
      traceId: identifier('A trace id to group this message with what follows from it.'),
      occurredAt: {
        type: 'string',
        format: 'date-time',
        description: 'When it was said (default: now).',
      },
    },
    required: ['sessionId', 'role', 'channel', 'text'],
    additionalProperties: false,
  },
};

/** recall_actions as RECALL_ACTIONS_TOOL declares it (that object is seed letter). */
const RECALL_ACTIONS: AgentToolDefinition = {
  name: RECALL_ACTIONS_TOOL.function.name,
  description: RECALL_ACTIONS_TOOL.function.description,
  inputSchema: RECALL_ACTIONS_TOOL.function.parameters,
};

const LIST_MEMORIES: AgentToolDefinition = {
  name: 'list_memories',
  description:
    'List what Engram remembers about the user, with each memory id (to forget one). Default: ' +
    'pending and approved memories. Read-only.',
  inputSchema: {
    type: 'object',
    properties: {
      status: {
        type: 'string',
        enum: [...REPORTED_MEMORY_STATUSES],
        description: 'Only this status.',
      },
      kind: { type: 'string', enum: [...MEMORY_KINDS], description: 'Only this kind.' },
    },
    additionalProperties: false,
  },
};

const FORGET_MEMORY: AgentToolDefinition = {
  name: 'forget_memory',
  description:
    'Forget one memory of the user, when the user asks you to: it is deleted (its content is ' +
    'erased, the deletion is kept in the history). Take the id from list_memories or the context.',
  inputSchema: {
    type: 'object',
    properties: { memoryId: uuid('The memory to forget.') },
    required: ['memoryId'],
    additionalProperties: false,
  },
};

const PROPOSE_ACTION: AgentToolDefinition = {
  name: 'propose_action',
  description:
    'Record an action you propose to carry out for the user (send an email, book a table...). ' +
    'It waits for confirmation, which may come on another channel, and expires after ttlSeconds; ' +
    'with requiresConfirmation false it starts confirmed. Then move it on with update_action.',
  inputSchema: {
    type: 'object',
    properties: {
      tool: identifier('The tool that will carry it out, e.g. gmail_send.'),
      summary: {
        type: 'string',
        minLength: 1,
        maxLength: 2000,
        description: 'What it does, in a few words.',
      },
      channel: identifier('The channel you propose it on.'),
      target: {
        type: 'string',
        minLength: 1,
        maxLength: 500,
        description: 'Who or what it is for.',
      },
      input: jsonObject('The arguments the tool will be called with.'),
      actionId: uuid('Idempotency key; generated when absent.'),
      traceId: identifier('A trace id to group the action with the message that led to it.'),
      requiresConfirmation: {
        type: 'boolean',
        default: true,
        description: 'false: it starts confirmed.',
      },
      ttlSeconds: {
        type: 'integer',
        minimum: 1,
        maximum: 604800,
        default: 900,
        description: 'A pending action expires after this many seconds.',
      },
    },
    required: ['tool', 'summary', 'channel'],
    additionalProperties: false,
  },
};

const UPDATE_ACTION: AgentToolDefinition = {
  name: 'update_action',
  description:
    'Move an action on: confirm (the user agreed; channel required), execute (it was carried ' +
    'out; optional result), abort (the user declined; optional reason) or fail (it could not be ' +
    'carried out; error required). A transition the action cannot take is refused.',
  inputSchema: {
    type: 'object',
    properties: {
      actionId: uuid('The action, as propose_action answered it.'),
      transition: { type: 'string', enum: [...ACTION_TRANSITIONS], description: 'What happened.' },
      channel: identifier('The channel it happened on (required to confirm; not taken by fail).'),
      result: jsonObject('execute only: what the tool answered.'),
      reason: { type: 'string', maxLength: 500, description: 'abort only: why.' },
      error: {
        type: 'string',
        minLength: 1,
        maxLength: 2000,
        description: 'fail only (required): what went wrong.',
      },
    },
    required: ['actionId', 'transition'],
    additionalProperties: false,
  },
};

const GET_ACTION: AgentToolDefinition = {
  name: 'get_action',
  description:
    'Get one action by id: its status, channels and dates. Read-only. Use it before confirming an ' +
    'action proposed on another channel.',
  inputSchema: {
    type: 'object',
    properties: { actionId: uuid('The action.') },
    required: ['actionId'],
    additionalProperties: false,
  },
};

const LIST_PENDING_ACTIONS: AgentToolDefinition = {
  name: 'list_pending_actions',
  description:
    'List the actions still waiting for the user to confirm them, newest first, on any channel. ' +
    'Read-only. Use it when the user says "yes, do it" and you need to know what they agree to.',
  inputSchema: {
    type: 'object',
    properties: {
      limit: {
        type: 'integer',
        minimum: 1,
        maximum: PENDING_ACTIONS_PAGE.max,
        default: PENDING_ACTIONS_PAGE.default,
        description: 'At most this many.',
      },
      cursor: { type: 'string', maxLength: 200, description: 'nextCursor of the previous page.' },
    },
    additionalProperties: false,
  },
};

/** Every tool an agent gets, in the order they are listed. */
export const AGENT_TOOLS: readonly AgentToolDefinition[] = [
  GET_CONTEXT,
  RECORD_MESSAGE,
  RECALL_ACTIONS,
  LIST_MEMORIES,
  FORGET_MEMORY,
  PROPOSE_ACTION,
  UPDATE_ACTION,
  GET_ACTION,
  LIST_PENDING_ACTIONS,
];

export type AgentToolName =
  | 'get_context'
  | 'record_message'
  | 'recall_actions'
  | 'list_memories'
  | 'forget_memory'
  | 'propose_action'
  | 'update_action'
  | 'get_action'
  | 'list_pending_actions';
