import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { isIdentifier } from '@engram/domain';
import {
  renderMemoryList,
  WRITE_RESULTS_TEXT,
  type ActionTransitionName,
  type AgentToolName,
} from '@engram/prompt-blocks';
import { ActionCommands, type ActionTransition } from '../actions/action-commands';
import { ActionReads } from '../actions/action-reads';
import {
  AbortActionBody,
  ConfirmActionBody,
  ExecuteActionBody,
  FailActionBody,
  ProposeActionBody,
} from '../actions/action.dto';
import { PendingActionsArgs } from '../actions/pending-actions.dto';
import { RecallActionsBody } from '../actions/recall-actions.dto';
import { AgentContextReader } from '../context/agent-context-reader';
import { ContextArgs } from '../context/context.dto';
import { MemoryListArgs, toMemoryResponse } from '../memories/memory.dto';
import { UserMemories } from '../memories/user-memories';
import { MessageRecorder } from '../messages/message-recorder';
import { RecordMessageBody } from '../messages/record-message.dto';
import { ActionIdArgs, ForgetMemoryArgs, UpdateActionArgs } from './agent-tool-args';
import type { AgentToolCaller, AgentToolResult } from './agent-tool-caller';
import { validateArgs } from './validate-args';

/** One tool's code: the DTO its arguments are validated with, and what it does with them. */
export type AgentToolImplementation = Readonly<{
  name: AgentToolName;
  args: new () => object;
  run(args: object, caller: AgentToolCaller): Promise<AgentToolResult>;
}>;

function tool<Args extends object>(
  name: AgentToolName,
  args: new () => Args,
  run: (args: Args, caller: AgentToolCaller) => Promise<AgentToolResult>,
): AgentToolImplementation {
  return { name, args, run: (given, caller) => run(given as Args, caller) };
}

const ownerOf = (caller: AgentToolCaller) => ({
  workspaceId: caller.workspaceId,
  userId: caller.userId,
});
const readOf = (caller: AgentToolCaller) =>
  caller.minPosition === undefined ? {} : { minPosition: caller.minPosition };
const correlationOf = (caller: AgentToolCaller): string =>
  isIdentifier(caller.correlationId) ? caller.correlationId : randomUUID();

/** The body DTO of each transition's route: update_action takes exactly what that route takes. */
const TRANSITION_BODIES: Readonly<Record<ActionTransitionName, new () => object>> = {
  confirm: ConfirmActionBody,
  execute: ExecuteActionBody,
  abort: AbortActionBody,
  fail: FailActionBody,
};

/**
 * Each agent tool calls the function its HTTP route calls (no second copy): the messages'
 * recorder, the context reader, the actions' reads and writes, the user's memories.
 */
@Injectable()
export class AgentToolImplementations {
  constructor(
    private readonly messages: MessageRecorder,
    private readonly context: AgentContextReader,
    private readonly actions: ActionCommands,
    private readonly actionReads: ActionReads,
    private readonly memories: UserMemories,
  ) {}

  all(): AgentToolImplementation[] {
    return [
      tool('get_context', ContextArgs, (args, caller) =>
        this.context.read(ownerOf(caller), args, readOf(caller)),
      ),
      tool('record_message', RecordMessageBody, async (args, caller) => {
        const data = await this.messages.record(ownerOf(caller), args, correlationOf(caller));
        return { data, text: WRITE_RESULTS_TEXT.messageRecorded(data.messageId) };
      }),
      tool('recall_actions', RecallActionsBody, (args, caller) =>
        this.actionReads.recall(ownerOf(caller), args, readOf(caller)),
      ),
      tool('list_memories', MemoryListArgs, async (args, caller) => {
        const owner = ownerOf(caller);
        const { rows, policy } = await this.memories.list(
          { ...owner, roles: ['agent'] },
          owner,
          args,
          readOf(caller),
        );
        const items = rows.map(toMemoryResponse);
        return { data: { items }, text: renderMemoryList(items, policy.locale) };
      }),
      tool('forget_memory', ForgetMemoryArgs, async (args, caller) => {
        const memoryId = args.memoryId.toLowerCase();
        // An agent forgets at the user's request: the user decided it, through the agent.
        const data = await this.memories.forget(
          ownerOf(caller),
          memoryId,
          { kind: 'person', userId: caller.userId, role: 'user' },
          correlationOf(caller),
        );
        return { data, text: WRITE_RESULTS_TEXT.memoryForgotten(memoryId) };
      }),
      tool('propose_action', ProposeActionBody, async (args, caller) => {
        const data = await this.actions.propose(ownerOf(caller), args, correlationOf(caller));
        return {
          data,
          text: WRITE_RESULTS_TEXT.actionProposed(data.actionId, data.status, data.expiresAt),
        };
      }),
      tool('update_action', UpdateActionArgs, async (args, caller) => {
        const { actionId, transition, ...fields } = args;
        const body = await validateArgs(TRANSITION_BODIES[transition], definedOnly(fields));
        const step = { transition, ...body } as ActionTransition;
        const id = actionId.toLowerCase();
        const data = await this.actions.transition(
          ownerOf(caller),
          id,
          step,
          correlationOf(caller),
        );
        return { data, text: WRITE_RESULTS_TEXT.actionMoved(id, data.status) };
      }),
      tool('get_action', ActionIdArgs, (args, caller) =>
        this.actionReads.get(ownerOf(caller), args.actionId, readOf(caller)),
      ),
      tool('list_pending_actions', PendingActionsArgs, (args, caller) =>
        this.actionReads.pending(ownerOf(caller), args, readOf(caller)),
      ),
    ];
  }
}

/** The fields a model actually wrote (class-transformer leaves declared but absent ones undefined). */
function definedOnly(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}
