import { Injectable } from '@nestjs/common';
import {
  storedStatusesOf,
  type CallerIdentity,
  type DecidedBy,
  type MemoryPolicy,
} from '@engram/domain';
import {
  findMemories,
  findMemoryPolicy,
  memoriesProjection,
  workspacePoliciesProjection,
  type MemoryRecord,
  type Owner,
} from '@engram/projections';
import { Commands } from '../commands/commands';
import { ReadModels } from '../read-models/read-models';
import type { ReadQuery } from '../read-models/read-query';
import { decideMemory, type MemoryDecisionResponse } from './decide-memory';
import type { MemoryListArgs } from './memory.dto';

/**
 * A user's memories, read and deleted: by the user themselves (`/v1/me/memories`) and by an agent
 * on their behalf (the tools `list_memories` and `forget_memory`).
 */
@Injectable()
export class UserMemories {
  constructor(
    private readonly readModels: ReadModels,
    private readonly commands: Commands,
  ) {}

  /** Pending and approved by default, oldest first, with the policy of the user's workspace. */
  async list(
    identity: CallerIdentity,
    owner: Owner,
    filter: MemoryListArgs,
    read: ReadQuery,
  ): Promise<Readonly<{ rows: MemoryRecord[]; policy: MemoryPolicy }>> {
    await this.readModels.catchUp(
      owner,
      [memoriesProjection.name, workspacePoliciesProjection.name],
      read,
    );
    return this.readModels.read(identity, async (manager) => ({
      rows: await findMemories(manager, owner.workspaceId, owner.userId, {
        statuses: filter.status ? storedStatusesOf(filter.status) : ['pending', 'approved'],
        ...(filter.kind ? { kind: filter.kind } : {}),
      }),
      policy: await findMemoryPolicy(manager, owner.workspaceId),
    }));
  }

  forget(
    owner: Owner,
    memoryId: string,
    by: DecidedBy,
    correlationId: string,
  ): Promise<MemoryDecisionResponse> {
    return decideMemory(
      this.commands,
      { workspaceId: owner.workspaceId, ownerId: owner.userId, memoryId, correlationId },
      { type: 'DeleteMemory', by, reason: 'deleted' },
      'deleted',
    );
  }
}
