import { ApiProperty } from '@nestjs/swagger';
import {
  memoryDecider,
  userStream,
  type ApproveMemory,
  type MemoryCommand,
  type RejectMemory,
} from '@engram/domain';
import type { Commands } from '../commands/commands';
import { positionToJson } from '../http/position';

export class MemoryDecisionResponse {
  @ApiProperty() status!: string;
  @ApiProperty() position!: number;
}

export type Review = Readonly<{
  command: ApproveMemory | RejectMemory;
  status: 'approved' | 'rejected';
}>;

/** An approval or a rejection by a person: an admin from the queue, a user of their own memory. */
export function review(
  decision: 'approve' | 'reject',
  by: Readonly<{ userId: string; role: 'user' | 'admin' }>,
  reason?: string,
): Review {
  const person = { kind: 'person' as const, userId: by.userId, role: by.role };
  return decision === 'approve'
    ? { command: { type: 'ApproveMemory', by: person }, status: 'approved' }
    : {
        command: { type: 'RejectMemory', by: person, ...(reason ? { reason } : {}) },
        status: 'rejected',
      };
}

/** Runs a review or deletion on one memory of its owner and answers the new status with the position. */
export async function decideMemory(
  commands: Commands,
  target: Readonly<{
    workspaceId: string;
    ownerId: string;
    memoryId: string;
    correlationId: string;
  }>,
  command: MemoryCommand,
  status: 'approved' | 'rejected' | 'deleted',
): Promise<MemoryDecisionResponse> {
  const result = await commands.decide(
    userStream(target.workspaceId, target.ownerId, 'memory', target.memoryId),
    memoryDecider,
    command,
    {
      workspaceId: target.workspaceId,
      userId: target.ownerId,
      correlationId: target.correlationId,
    },
  );
  return { status, position: positionToJson(result.position) };
}
