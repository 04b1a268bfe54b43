import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsNumber, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { MEMORY_KINDS, type MemoryKind } from '@engram/domain';
import { IsIdentifier } from '../http/identifier';
import { PageQuery } from '../http/page-query';

export const QUEUE_STATUSES = ['pending', 'expired'] as const;

export class ReviewQueueQuery extends PageQuery {
  @ApiPropertyOptional({ enum: QUEUE_STATUSES, default: 'pending' })
  @IsOptional()
  @IsIn(QUEUE_STATUSES, {
    message: 'status must be pending or expired (admins never see other statuses)',
  })
  status?: (typeof QUEUE_STATUSES)[number];

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
  @ApiProperty() status!: string;
  @ApiProperty() sourceMessageId!: string;
  @ApiProperty({ description: 'The beginning of the message it came from' }) sourceExcerpt!: string;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ description: 'Seconds since it was detected' }) ageSeconds!: number;
  @ApiPropertyOptional({ format: 'date-time' }) decidedAt?: string;
}

export class ReviewQueueResponse {
  @ApiProperty({ type: [ReviewItem] }) items!: ReviewItem[];
  @ApiPropertyOptional({ nullable: true }) nextCursor!: string | null;
}

export class RejectBody {
  @ApiPropertyOptional({ maxLength: 500 })
  @IsOptional()
  @IsString({ message: 'reason must be a string' })
  @MaxLength(500, { message: 'reason must be at most 500 characters' })
  reason?: string;
}
