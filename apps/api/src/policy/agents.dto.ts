import { ApiProperty } from '@nestjs/swagger';
import type { WorkspaceAgent } from '@engram/projections';

export class AgentResponse {
  @ApiProperty({ example: 'chat-web' }) agentId!: string;
  @ApiProperty({
    description:
      '"Enable Memory": true unless an admin switched it off (PUT …/agents/{agentId}/memory)',
  })
  memoryEnabled!: boolean;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'Its first recorded message (null for an agent only switched, never seen)',
  })
  firstSeenAt!: string | null;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'Its latest recorded message',
  })
  lastSeenAt!: string | null;
  @ApiProperty({ minimum: 0, description: 'Messages recorded with this agentId' })
  messageCount!: number;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When memory was last switched (null: never)',
  })
  updatedAt!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'The admin who last switched it' })
  updatedBy!: string | null;
}

export class AgentListResponse {
  @ApiProperty({ type: [AgentResponse] }) items!: AgentResponse[];
}

export function toAgentResponse(agent: WorkspaceAgent): AgentResponse {
  const iso = (date: Date | null) => date?.toISOString() ?? null;
  return {
    agentId: agent.agentId,
    memoryEnabled: agent.memoryEnabled,
    firstSeenAt: iso(agent.firstSeenAt),
    lastSeenAt: iso(agent.lastSeenAt),
    messageCount: agent.messageCount,
    updatedAt: iso(agent.updatedAt),
    updatedBy: agent.updatedBy,
  };
}
