import type { Caller } from './caller';
import type {
  AbortActionBody,
  AgentContextMessagesResponse,
  AgentContextResponse,
  ActionTransitionResponse,
  ActionViewResponse,
  ConfirmActionBody,
  ErasureResponse,
  ExecuteActionBody,
  FailActionBody,
  ProposeActionBody,
  ProposeActionResponse,
  RecallActionsBody,
  RecallActionsResponse,
  RecordMessageBody,
  RecordMessageResponse,
} from './generated/api-types';
import { ndjsonLines } from './ndjson';
import { paginate } from './pages';
import { ROUTES, type QueryOf, type ResponseOf } from './routes';

/** A tool's answer: the JSON of the route it stands for, with `text` beside it for the model. */
export type ToolCallResult = ResponseOf<typeof ROUTES.callTool.path, 'post'>;

export type ContextOptions = Omit<QueryOf<typeof ROUTES.context.path, 'get'>, 'minPosition'>;

/** One line of an export: one event of the user, decrypted, in the order of the log. */
export type ExportedEvent = Readonly<{
  position: number;
  eventId: string;
  streamId: string;
  revision: number;
  type: string;
  schemaVersion: number;
  occurredAt: string;
  recordedAt: string;
  metadata: Record<string, unknown>;
  data: Record<string, unknown>;
  /** True when the user's key was shredded: the personal fields are gone. */
  erased: boolean;
}>;

/** What an agent does for one user of the workspace: `engram.user('alice')`. */
export class EngramUser {
  constructor(
    private readonly caller: Caller,
    readonly userId: string,
  ) {}

  /**
   * Records a message of the conversation (202). Without a `messageId` the client makes one, so that
   * a retry after a lost answer is recognised and recorded once.
   */
  recordMessage(
    message: Omit<RecordMessageBody, 'messageId'> & { messageId?: string },
  ): Promise<RecordMessageResponse> {
    const body = { ...message, messageId: message.messageId ?? newId() };
    return this.caller.call(ROUTES.recordMessage, { userId: this.userId, body });
  }

  /**
   * The context for the agent's next prompt: its blocks and the system prompt, or with
   * `format: 'messages'` the system message and the live window as chat messages (leave out the turn
   * about to be sent with `excludeMessageId`).
   */
  context(options: ContextOptions & { format: 'messages' }): Promise<AgentContextMessagesResponse>;
  context(options?: ContextOptions & { format?: 'blocks' }): Promise<AgentContextResponse>;
  context(
    options: ContextOptions = {},
  ): Promise<AgentContextResponse | AgentContextMessagesResponse> {
    return this.caller.call(ROUTES.context, { userId: this.userId, query: options });
  }

  /** Proposes an action (201); idempotent on `actionId`, which the client makes when none is given. */
  proposeAction(
    action: Omit<ProposeActionBody, 'actionId'> & { actionId?: string },
  ): Promise<ProposeActionResponse> {
    const body = { ...action, actionId: action.actionId ?? newId() };
    return this.caller.call(ROUTES.proposeAction, { userId: this.userId, body });
  }

  /** Confirms a pending action, from whichever channel the user answered on. */
  confirmAction(actionId: string, body: ConfirmActionBody): Promise<ActionTransitionResponse> {
    return this.caller.call(ROUTES.confirmAction, {
      userId: this.userId,
      params: { actionId },
      body,
    });
  }
  executeAction(actionId: string, body: ExecuteActionBody): Promise<ActionTransitionResponse> {
    return this.caller.call(ROUTES.executeAction, {
      userId: this.userId,
      params: { actionId },
      body,
    });
  }
  abortAction(actionId: string, body: AbortActionBody): Promise<ActionTransitionResponse> {
    return this.caller.call(ROUTES.abortAction, {
      userId: this.userId,
      params: { actionId },
      body,
    });
  }
  failAction(actionId: string, body: FailActionBody): Promise<ActionTransitionResponse> {
    return this.caller.call(ROUTES.failAction, { userId: this.userId, params: { actionId }, body });
  }

  getAction(actionId: string): Promise<ActionViewResponse> {
    return this.caller.call(ROUTES.getAction, { userId: this.userId, params: { actionId } });
  }

  /** The user's pending actions, newest first, page after page as they are consumed. */
  pendingActions(options: { limit?: number } = {}): AsyncGenerator<ActionViewResponse> {
    return paginate((cursor) =>
      this.caller.call(ROUTES.pendingActions, {
        userId: this.userId,
        query: { status: 'pending', ...options, ...(cursor === undefined ? {} : { cursor }) },
      }),
    );
  }

  /** The `recall_actions` tool: the user's past actions matching a query. */
  recallActions(query: RecallActionsBody = {}): Promise<RecallActionsResponse> {
    return this.caller.call(ROUTES.recallActions, { userId: this.userId, body: query });
  }

  /**
   * Calls an agent tool by name with the arguments a model wrote (`GET /v1/tools` lists them): a
   * model's tool call is routed as it is. The answer carries `text`, what the model reads.
   */
  callTool(name: string, args: Record<string, unknown> = {}): Promise<ToolCallResult> {
    return this.caller.call(ROUTES.callTool, {
      userId: this.userId,
      params: { name },
      body: args,
    });
  }

  /** The user's whole history, one decrypted event at a time (auditor role). */
  async *export(): AsyncGenerator<ExportedEvent, void, undefined> {
    const response = await this.caller.stream(ROUTES.exportUser, { userId: this.userId });
    yield* ndjsonLines<ExportedEvent>(response.body);
  }

  /** Erases the user: their data key is destroyed and their streams deleted (auditor role). */
  erase(): Promise<ErasureResponse> {
    return this.caller.call(ROUTES.eraseUser, { userId: this.userId });
  }
}

function newId(): string {
  return globalThis.crypto.randomUUID();
}
