import { IDENTIFIER_PATTERN, isIdentifier } from '@engram/domain';
import type { McpToolDefinition } from './mcp-tool';
import { ToolCallRefused } from './tool-errors';

/** The argument naming the user a tool acts for, when the connection does not name one. */
export const USER_ID_ARGUMENT = 'userId';

const USER_ID_SCHEMA = {
  type: 'string',
  pattern: IDENTIFIER_PATTERN.source,
  description: 'The id of the user this call acts for (the person the agent is talking to)',
};

/**
 * The definition a client sees: with no user fixed by the connection, each tool takes the user it acts
 * for as a required `userId` argument (an agent serving many people names one per call).
 */
export function withActingUser(
  definition: McpToolDefinition,
  fixedUserId: string | undefined,
): McpToolDefinition {
  if (fixedUserId !== undefined) return definition;
  const { inputSchema } = definition;
  return {
    ...definition,
    inputSchema: {
      ...inputSchema,
      properties: { ...inputSchema.properties, [USER_ID_ARGUMENT]: USER_ID_SCHEMA },
      required: [...(inputSchema.required ?? []), USER_ID_ARGUMENT],
    },
  };
}

/**
 * Who the call acts for and the tool's own arguments (without `userId`): the connection's user, or
 * the `userId` argument. A missing or different user is refused as a bad argument.
 */
export function actingUser(
  args: Readonly<Record<string, unknown>>,
  fixedUserId: string | undefined,
): { userId: string; args: Record<string, unknown> } {
  const { [USER_ID_ARGUMENT]: given, ...toolArgs } = args;
  if (fixedUserId !== undefined) {
    if (given !== undefined && given !== fixedUserId) {
      throw new ToolCallRefused(
        `This connection acts for the user ${fixedUserId}: leave out the ${USER_ID_ARGUMENT} argument`,
        400,
      );
    }
    return { userId: fixedUserId, args: toolArgs };
  }
  if (!isIdentifier(given)) {
    throw new ToolCallRefused(
      given === undefined
        ? `${USER_ID_ARGUMENT} is required: the id of the user this call acts for`
        : `${USER_ID_ARGUMENT} must be 1 to 128 of A-Z a-z 0-9 . _ : -`,
      400,
    );
  }
  return { userId: given, args: toolArgs };
}
