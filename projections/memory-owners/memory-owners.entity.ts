import { Entity, PrimaryColumn } from 'typeorm';

/** Whose memory an id is: lets a reviewing admin find the owner even once the memory left the queue. */
@Entity({ name: 'memory_owners' })
export class MemoryOwner {
  @PrimaryColumn({ name: 'workspace_id', type: 'text' })
  workspaceId!: string;

  @PrimaryColumn({ name: 'memory_id', type: 'text' })
  memoryId!: string;

  @PrimaryColumn({ name: 'user_id', type: 'text' })
  userId!: string;
}
