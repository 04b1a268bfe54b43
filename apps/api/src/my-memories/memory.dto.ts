import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { MEMORY_KINDS, type MemoryKind } from '@engram/domain';
import type { MemoryRecord } from '@engram/projections';
import { ReadQuery } from '../read-models/read-query';

export const MEMORY_STATUSES = [
  'pending',
  'approved',
  'rejected',
  'expired',
  'deleted',
  'evicted',
] as const;

export class MyMemoriesQuery extends ReadQuery {
  @ApiPropertyOptional({ enum: MEMORY_STATUSES, description: 'Default: pending and approved' })
  @IsOptional()
  @IsIn(MEMORY_STATUSES, { message: `status must be one of: ${MEMORY_STATUSES.join(', ')}` })
  status?: (typeof MEMORY_STATUSES)[number];

  @ApiPropertyOptional({ enum: MEMORY_KINDS })
  @IsOptional()
  @IsIn(MEMORY_KINDS, { message: `kind must be one of: ${MEMORY_KINDS.join(', ')}` })
  kind?: MemoryKind;
}

export class MemoryResponse {
  @ApiProperty({ format: 'uuid' }) memoryId!: string;
  @ApiProperty({ enum: MEMORY_KINDS }) kind!: MemoryKind;
  @ApiProperty({ nullable: true, description: 'null once deleted' }) content!: string | null;
  @ApiProperty({ minimum: 0, maximum: 1 }) confidence!: number;
  @ApiProperty({ enum: MEMORY_STATUSES }) status!: string;
  @ApiProperty() sourceMessageId!: string;
  @ApiProperty({ nullable: true, description: 'The beginning of that message; null once deleted' })
  sourceExcerpt!: string | null;
  @ApiProperty() sessionId!: string;
  @ApiPropertyOptional({ format: 'date-time' }) dueAt?: string;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiPropertyOptional({ format: 'date-time' }) decidedAt?: string;
  @ApiPropertyOptional({
    description: '{ kind: person, userId, role } | { kind: policy } | { kind: expiry }',
  })
  decidedBy?: object;
  @ApiPropertyOptional() rejectionReason?: string;
  @ApiProperty({ format: 'date-time' }) lastSeenAt!: string;
  @ApiPropertyOptional({ format: 'date-time' }) lastUsedAt?: string;
  @ApiProperty() seenCount!: number;
}

export class MemoryListResponse {
  @ApiProperty({ type: [MemoryResponse] }) items!: MemoryResponse[];
  @ApiPropertyOptional({ nullable: true }) nextCursor?: string | null;
}

export function toMemoryResponse(row: MemoryRecord): MemoryResponse {
  return {
    memoryId: row.memoryId,
    kind: row.kind,
    content: row.content ?? null,
    confidence: row.confidence,
    status: row.status,
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
  };
}
