import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { LOCALES, type Locale, type MemoryPolicy, type ReviewMode } from '@engram/domain';
import { REVIEW_MODES } from './memory-policy.dto';

/** The policy in force (the defaults until an admin changes it); the rules of each field are the body's. */
export class MemoryPolicyResponse implements MemoryPolicy {
  @ApiProperty({ enum: REVIEW_MODES }) reviewMode!: ReviewMode;
  @ApiPropertyOptional({ minimum: 0, maximum: 1, description: 'Absent: no threshold' })
  autoApproveAbove?: number;
  @ApiProperty({ minimum: 1, maximum: 365 }) pendingTtlDays!: number;
  @ApiProperty({ minimum: 1, maximum: 200 }) liveWindow!: number;
  @ApiProperty({ minimum: 1, maximum: 200 }) summaryBatch!: number;
  @ApiProperty({ minimum: 1, maximum: 10000 }) userMemoryCap!: number;
  @ApiProperty({ example: 'Europe/Paris' }) timeZone!: string;
  @ApiProperty({ enum: LOCALES }) locale!: Locale;
  @ApiPropertyOptional({ type: 'integer', minimum: 1, description: 'Absent: no budget' })
  llmCallsPerUserPerDay?: number;
}

export class ChangedMemoryPolicyResponse extends MemoryPolicyResponse {
  @ApiProperty({
    description: 'Global position of the change: pass it as minPosition to read it back',
  })
  position!: number;
}
