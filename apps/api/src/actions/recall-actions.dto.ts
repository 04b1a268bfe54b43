import { ActionViewResponse } from './action-view.response';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { ACTION_STATUSES, type ActionStatus } from '@engram/domain';

export class RecallActionsBody {
  @ApiPropertyOptional({
    maxLength: 200,
    description:
      'Text searched in the tool name and the action content (accent- and case-insensitive)',
  })
  @IsOptional()
  @IsString({ message: 'query must be a string' })
  @MaxLength(200, { message: 'query must be at most 200 characters' })
  query?: string;

  @ApiPropertyOptional({ enum: ACTION_STATUSES })
  @IsOptional()
  @IsIn(ACTION_STATUSES, { message: `status must be one of: ${ACTION_STATUSES.join(', ')}` })
  status?: ActionStatus;

  @ApiPropertyOptional({ minimum: 1, maximum: 90, default: 30 })
  @IsOptional()
  @IsInt({ message: 'days must be an integer from 1 to 90' })
  @Min(1, { message: 'days must be an integer from 1 to 90' })
  @Max(90, { message: 'days must be an integer from 1 to 90' })
  days?: number;
}

export class RecallActionsResponse {
  @ApiProperty({
    type: [ActionViewResponse],
    description: 'Matching actions, newest first (at most 20)',
  })
  actions!: ActionViewResponse[];
  @ApiProperty({ description: 'The same, rendered for the LLM' }) text!: string;
}

export class ToolFunctionResponse {
  @ApiProperty({ example: 'recall_actions' }) name!: string;
  @ApiProperty() description!: string;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'JSON schema' })
  parameters!: Record<string, unknown>;
}

/** A function tool as the OpenAI chat completions API declares it. */
export class ToolDefinitionResponse {
  @ApiProperty({ enum: ['function'] }) type!: 'function';
  @ApiProperty({ type: ToolFunctionResponse }) function!: ToolFunctionResponse;
}
