import type { Principal } from '@engram/auth';

/**
 * Who calls a tool, for whom: the verified principal (an agent), and the user of the workspace the
 * call is about. `minPosition` is read-your-writes for the reading tools (`?minPosition=` on HTTP).
 */
export type AgentToolCaller = Readonly<{
  principal: Principal;
  workspaceId: string;
  userId: string;
  correlationId?: string | undefined;
  minPosition?: number | undefined;
}>;

/** `data`: the same JSON as the tool's HTTP route; `text`: what a model reads. */
export type AgentToolResult = Readonly<{ data: unknown; text: string }>;
