import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ACTION_STATUSES, type ActionStatus } from '@engram/domain';

export class ActionStepResponse {
  @ApiProperty({ description: 'confirmed, executed, aborted, failed, expired' }) status!: string;
  @ApiProperty({ type: String, nullable: true }) channel!: string | null;
  @ApiProperty({ format: 'date-time' }) at!: string;
}

/** An action as the agent's context and recall_actions show it (API.md's Action shape). */
export class ActionViewResponse {
  @ApiProperty() actionId!: string;
  @ApiPropertyOptional({ type: String, nullable: true }) traceId?: string | null;
  @ApiProperty() tool!: string;
  @ApiProperty({ type: String, nullable: true }) target!: string | null;
  @ApiProperty() summary!: string;
  @ApiProperty({ enum: ACTION_STATUSES }) status!: ActionStatus;
  @ApiProperty({ description: 'The channel the action was asked on' }) requestedVia!: string;
  @ApiProperty({ type: [ActionStepResponse] }) steps!: readonly ActionStepResponse[];
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) expiresAt!: string | null;
}
