/**
 * The tool refused the call as the caller's mistake (an HTTP 4xx: bad arguments, an unknown action, a
 * conflict): the model is shown the message as the tool's result and can correct its call.
 */
export class ToolCallRefused extends Error {
  override readonly name = 'ToolCallRefused';

  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

/**
 * The tool could not run (an HTTP 5xx, a 503 while storage recovers, the API out of reach): nothing
 * the model can fix, so the client gets an MCP protocol error carrying the message.
 */
export class ToolCallFailed extends Error {
  override readonly name = 'ToolCallFailed';

  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}
