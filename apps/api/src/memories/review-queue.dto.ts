import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsNumber, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import {
  EXPIRED_REASON,
  MEMORY_KINDS,
  type MemoryKind,
  type ReportedMemoryStatus,
} from '@engram/domain';
import type { MemoryRecordStatus } from '@engram/projections';
import { IsIdentifier } from '../http/identifier';
import { PageQuery } from '../http/page-query';

export const QUEUE_STATUSES = ['pending', 'rejected', EXPIRED_REASON] as const;
export type QueueStatus = (typeof QUEUE_STATUSES)[number];

/**
 * What the queue holds: candidates pending, and those the expiry rejected (`expired`, the same, kept
 * for earlier clients). What an admin rejects leaves the queue, so `rejected` is the expired only.
 */
export function queueStatuses(status: QueueStatus): MemoryRecordStatus[] {
  return status === 'pending' ? ['pending'] : ['expired'];
}

export class ReviewQueueQuery extends PageQuery {
  @ApiPropertyOptional({
    enum: QUEUE_STATUSES,
    default: 'pending',
    description:
      'pending: to review. rejected: the candidates nobody reviewed before pendingTtlDays, rejected automatically (reason `expired`, seed 002); what an admin rejects leaves the queue. expired: the same as rejected, kept for earlier clients.',
  })
  @IsOptional()
  @IsIn(QUEUE_STATUSES, {
    message: 'status must be pending or rejected (admins never see other statuses)',
  })
  status?: QueueStatus;

  @IsIdentifier({ optional: true })
  userId?: string;

  @ApiPropertyOptional({ enum: MEMORY_KINDS })
  @IsOptional()
  @IsIn(MEMORY_KINDS, { message: `kind must be one of: ${MEMORY_KINDS.join(', ')}` })
  kind?: MemoryKind;

  @ApiPropertyOptional({ minimum: 0, maximum: 1 })
  @IsOptional()
  @Type(() => Number)
  @IsNumber({}, { message: 'minConfidence must be a number from 0 to 1' })
  @Min(0, { message: 'minConfidence must be a number from 0 to 1' })
  @Max(1, { message: 'minConfidence must be a number from 0 to 1' })
  minConfidence?: number;
}

export class ReviewItem {
  @ApiProperty() memoryId!: string;
  @ApiProperty() userId!: string;
  @ApiProperty({ enum: MEMORY_KINDS }) kind!: MemoryKind;
  @ApiProperty() content!: string;
  @ApiProperty() confidence!: number;
  @ApiProperty({ enum: ['pending', 'rejected'] }) status!: ReportedMemoryStatus;
  @ApiPropertyOptional({ enum: [EXPIRED_REASON], description: 'Why it was rejected' })
  reason?: string;
  @ApiProperty() sourceMessageId!: string;
  @ApiProperty({ description: 'The beginning of the message it came from' }) sourceExcerpt!: string;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ description: 'Seconds since it was detected' }) ageSeconds!: number;
  @ApiPropertyOptional({ format: 'date-time' }) decidedAt?: string;
}

export class ReviewQueueResponse {
  @ApiProperty({ type: [ReviewItem] }) items!: ReviewItem[];
  @ApiPropertyOptional({ type: String, nullable: true }) nextCursor!: string | null;
}

export class RejectBody {
  @ApiPropertyOptional({ maxLength: 500 })
  @IsOptional()
  @IsString({ message: 'reason must be a string' })
  @MaxLength(500, { message: 'reason must be at most 500 characters' })
  reason?: string;
}
