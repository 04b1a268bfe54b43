import { memoryDecider, userStream, type MemoryCommand } from '@engram/domain';
import type { Commands } from '../commands/commands';
import { positionToJson } from '../http/position';
import { correlationIdOf, type Headers as RequestHeaders } from '../http/request-context';

export type MemoryDecision = Readonly<{ status: string; position: number }>;

/** Runs a review or deletion on one memory of its owner and answers the new status with the position. */
export async function decideMemory(
  commands: Commands,
  target: Readonly<{
    workspaceId: string;
    ownerId: string;
    memoryId: string;
    headers: RequestHeaders;
  }>,
  command: MemoryCommand,
  status: 'approved' | 'rejected' | 'deleted',
): Promise<MemoryDecision> {
  const result = await commands.decide(
    userStream(target.workspaceId, target.ownerId, 'memory', target.memoryId),
    memoryDecider,
    command,
    {
      workspaceId: target.workspaceId,
      userId: target.ownerId,
      correlationId: correlationIdOf(target.headers),
    },
  );
  return { status, position: positionToJson(result.position) };
}
