import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { BUDGETED_PURPOSES, LLM_CALL_PURPOSES, type LlmCallPurpose } from '@engram/domain';
import { PageQuery } from '../http/page-query';
import { ReadQuery } from '../read-models/read-query';

const DAYS_RULE = 'days must be an integer from 1 to 90';

/** `?days=`: the window, today (in the policy's time zone) included; 30 by default, 90 at most. */
function Days() {
  return applyDecorators(
    ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 90, default: 30 }),
    IsOptional(),
    Type(() => Number),
    IsInt({ message: DAYS_RULE }),
    Min(1, { message: DAYS_RULE }),
    Max(90, { message: DAYS_RULE }),
  );
}

export class MyLlmUsageQuery extends ReadQuery {
  @Days() days?: number;
}

export class WorkspaceLlmUsageQuery extends PageQuery {
  @Days() days?: number;
}

export class LlmUsageTotals {
  @ApiProperty({ description: 'Calls recorded (each piece of work once per outcome and day)' })
  calls!: number;
  @ApiProperty({ description: 'Calls whose answer was invalid or that failed' }) failures!: number;
  @ApiProperty() promptTokens!: number;
  @ApiProperty() completionTokens!: number;
  @ApiProperty({ description: 'The calls’ latencies added up, in milliseconds' })
  latencyMs!: number;
  @ApiProperty({ description: 'Times work was held back by the daily budget' }) deferred!: number;
  @ApiProperty({ type: [String], description: 'Models that answered (`offline-rules`: no LLM)' })
  engines!: string[];
}

export class LlmUsageDay extends LlmUsageTotals {
  @ApiProperty({ example: '2026-06-01', description: 'In the workspace policy’s time zone' })
  day!: string;
  @ApiProperty({ enum: LLM_CALL_PURPOSES }) purpose!: LlmCallPurpose;
}

export class LlmBudgetView {
  @ApiProperty({ description: 'Extraction and summary calls per day (the policy)' }) limit!: number;
  @ApiProperty({ description: 'Extraction and summary calls made today' }) usedToday!: number;
  @ApiProperty({ format: 'date-time', description: 'When today ends in the policy’s time zone' })
  resetsAt!: string;
}

export class DeferredLlmWork {
  @ApiProperty({ enum: BUDGETED_PURPOSES }) purpose!: string;
  @ApiProperty({ description: '`message/{messageId}` or `session/{sessionId}`' }) cause!: string;
  @ApiProperty({ format: 'date-time' }) deferredAt!: string;
  @ApiProperty({ format: 'date-time', description: 'It runs once this time has passed' })
  until!: string;
}

class LlmUsageWindow {
  @ApiProperty() days!: number;
  @ApiProperty({ example: '2026-05-03', description: 'First day of the window' }) from!: string;
  @ApiProperty({ example: 'Europe/Paris' }) timeZone!: string;
}

export class MyLlmUsageResponse extends LlmUsageWindow {
  @ApiProperty({ type: [LlmUsageDay], description: 'By day (newest first) and purpose' })
  items!: LlmUsageDay[];
  @ApiProperty({
    type: LlmBudgetView,
    nullable: true,
    description: 'The workspace’s daily budget; null when it has none',
  })
  budget!: LlmBudgetView | null;
  @ApiProperty({
    type: [DeferredLlmWork],
    description: 'Analysis waiting for the next day because the budget was spent, oldest first',
  })
  deferred!: DeferredLlmWork[];
}

export class LlmUsageByPurpose {
  @ApiProperty({ type: LlmUsageTotals }) extraction!: LlmUsageTotals;
  @ApiProperty({ type: LlmUsageTotals }) summary!: LlmUsageTotals;
  @ApiProperty({ type: LlmUsageTotals }) identity_card!: LlmUsageTotals;
}

export class LlmUsageSummary extends LlmUsageTotals {
  @ApiProperty({ type: LlmUsageByPurpose }) byPurpose!: LlmUsageByPurpose;
}

export class UserLlmUsage extends LlmUsageSummary {
  @ApiProperty() userId!: string;
}

export class WorkspaceLlmUsageResponse extends LlmUsageWindow {
  @ApiProperty({ type: LlmUsageSummary, description: 'Every user of the workspace together' })
  totals!: LlmUsageSummary;
  @ApiProperty({ type: [UserLlmUsage], description: 'Per user (by id), counts only: no content' })
  items!: UserLlmUsage[];
  @ApiPropertyOptional({ type: String, nullable: true }) nextCursor!: string | null;
}
