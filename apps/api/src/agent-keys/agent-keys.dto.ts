import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import type { AgentKey } from '@engram/projections';

const NAME_RULE = 'name must be a text of 1 to 100 characters, not only spaces';

export class CreateAgentKeyBody {
  @ApiPropertyOptional({
    example: 'production',
    maxLength: 100,
    description: "An admin's label for the key (where it is deployed); shown in the list",
  })
  @IsOptional()
  @IsString({ message: NAME_RULE })
  @MaxLength(100, { message: NAME_RULE })
  @Matches(/\S/, { message: NAME_RULE })
  name?: string;
}

export class CreatedAgentKeyResponse {
  @ApiProperty({ format: 'uuid', description: 'The key id (for the list and DELETE)' })
  id!: string;
  @ApiProperty({
    example: 'egk_0b6f…_Xc9…',
    description:
      'The secret key, shown this once (only its SHA-256 digest is kept): the agent sends it as `Authorization: Bearer <key>`',
  })
  key!: string;
}

export class AgentKeyResponse {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ example: 'chat-web' }) agentId!: string;
  @ApiProperty({ type: String, nullable: true }) name!: string | null;
  @ApiProperty({ type: String, format: 'date-time' }) createdAt!: string;
  @ApiProperty({ description: 'The admin who created it' }) createdBy!: string;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'Its latest recorded use (recorded at most every ten minutes; null: never used)',
  })
  lastUsedAt!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) revokedAt!: string | null;
  @ApiProperty({ type: String, nullable: true }) revokedBy!: string | null;
}

export class AgentKeyListResponse {
  @ApiProperty({ type: [AgentKeyResponse] }) items!: AgentKeyResponse[];
}

/** Everything of the row but its digest: the secret's trace never leaves the server. */
export function toAgentKeyResponse(key: AgentKey): AgentKeyResponse {
  const iso = (date: Date | null) => date?.toISOString() ?? null;
  return {
    id: key.keyId,
    agentId: key.agentId,
    name: key.name,
    createdAt: key.createdAt.toISOString(),
    createdBy: key.createdBy,
    lastUsedAt: iso(key.lastUsedAt),
    revokedAt: iso(key.revokedAt),
    revokedBy: key.revokedBy,
  };
}
