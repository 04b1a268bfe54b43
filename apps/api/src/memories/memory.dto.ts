import { ApiProperty, ApiPropertyOptional, IntersectionType } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import {
  EXPIRED_REASON,
  MEMORY_KINDS,
  REPORTED_MEMORY_STATUSES,
  reportMemoryStatus,
  type MemoryKind,
  type ReportedMemoryStatus,
} from '@engram/domain';
import type { MemoryRecord } from '@engram/projections';
import { ReadQuery } from '../read-models/read-query';

/** What `?status=` accepts: the reported statuses, and `expired`, kept for earlier clients. */
export const MEMORY_STATUS_FILTERS = [...REPORTED_MEMORY_STATUSES, EXPIRED_REASON] as const;

/** Which of a user's memories to list: the query of `GET /v1/me/memories`, the arguments of `list_memories`. */
export class MemoryListArgs {
  @ApiPropertyOptional({
    enum: MEMORY_STATUS_FILTERS,
    description:
      'Default: pending and approved. `rejected` includes the candidates that expired (seed 002: rejected automatically, reason `expired`); `expired`, kept for earlier clients, lists only those.',
  })
  @IsOptional()
  @IsIn(MEMORY_STATUS_FILTERS, {
    message: `status must be one of: ${MEMORY_STATUS_FILTERS.join(', ')}`,
  })
  status?: (typeof MEMORY_STATUS_FILTERS)[number];

  @ApiPropertyOptional({ enum: MEMORY_KINDS })
  @IsOptional()
  @IsIn(MEMORY_KINDS, { message: `kind must be one of: ${MEMORY_KINDS.join(', ')}` })
  kind?: MemoryKind;
}

export class MyMemoriesQuery extends IntersectionType(MemoryListArgs, ReadQuery) {}

export class MemoryResponse {
  @ApiProperty({ format: 'uuid' }) memoryId!: string;
  @ApiProperty({ enum: MEMORY_KINDS }) kind!: MemoryKind;
  @ApiProperty({ type: String, nullable: true, description: 'null once deleted' }) content!:
    string | null;
  @ApiProperty({ minimum: 0, maximum: 1 }) confidence!: number;
  @ApiProperty({
    enum: REPORTED_MEMORY_STATUSES,
    description: 'A candidate nobody reviewed before pendingTtlDays is rejected, reason `expired`',
  })
  status!: ReportedMemoryStatus;
  @ApiPropertyOptional({
    description:
      'Why it was rejected: the reviewer’s reason, or `expired` (nobody reviewed it in time)',
  })
  reason?: string;
  @ApiProperty() sourceMessageId!: string;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The beginning of that message; null once deleted',
  })
  sourceExcerpt!: string | null;
  @ApiProperty() sessionId!: string;
  @ApiPropertyOptional({ format: 'date-time' }) dueAt?: string;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiPropertyOptional({ format: 'date-time' }) decidedAt?: string;
  @ApiPropertyOptional({
    description: '{ kind: person, userId, role } | { kind: policy } | { kind: expiry }',
  })
  decidedBy?: object;
  @ApiPropertyOptional({
    deprecated: true,
    description: 'The same as `reason`, for earlier clients',
  })
  rejectionReason?: string;
  @ApiProperty({ format: 'date-time' }) lastSeenAt!: string;
  @ApiPropertyOptional({ format: 'date-time' }) lastUsedAt?: string;
  @ApiProperty() seenCount!: number;
  @ApiPropertyOptional({
    description:
      'Status `superseded`: the newer memory that replaced it (out of the agent context, kept as history)',
  })
  supersededBy?: string;
  @ApiPropertyOptional({
    description:
      'The memory this one replaces once approved (a contradiction: moved, changed job…)',
  })
  supersedes?: string;
}

export class MemoryListResponse {
  @ApiProperty({ type: [MemoryResponse] }) items!: MemoryResponse[];
  @ApiPropertyOptional({ type: String, nullable: true }) nextCursor?: string | null;
  @ApiProperty({
    description:
      'Whether you approve or reject your pending memories yourself (POST …/{id}/approve · /reject): the workspace reviews in mode user',
  })
  canReview!: boolean;
}

export function toMemoryResponse(row: MemoryRecord): MemoryResponse {
  return {
    memoryId: row.memoryId,
    kind: row.kind,
    content: row.content ?? null,
    confidence: row.confidence,
    ...reportMemoryStatus(row.status, row.rejectionReason),
    sourceMessageId: row.sourceMessageId,
    sourceExcerpt: row.sourceExcerpt ?? null,
    sessionId: row.sessionId,
    ...(row.dueAt ? { dueAt: row.dueAt.toISOString() } : {}),
    createdAt: row.createdAt.toISOString(),
    ...(row.decidedAt ? { decidedAt: row.decidedAt.toISOString() } : {}),
    ...(row.decidedBy ? { decidedBy: row.decidedBy } : {}),
    ...(row.rejectionReason ? { rejectionReason: row.rejectionReason } : {}),
    lastSeenAt: row.lastSeenAt.toISOString(),
    ...(row.lastUsedAt ? { lastUsedAt: row.lastUsedAt.toISOString() } : {}),
    seenCount: row.seenCount,
    ...(row.supersededBy ? { supersededBy: row.supersededBy } : {}),
    ...(row.supersedes ? { supersedes: row.supersedes } : {}),
  };
}
