import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsBoolean,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  Length,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { ACTION_STATUSES, type ActionStatus } from '@engram/domain';
import { IsIdentifier } from '../http/identifier';

export const DEFAULT_ACTION_TTL_SECONDS = 900;

export class ProposeActionBody {
  @ApiPropertyOptional({ format: 'uuid', description: 'Idempotency key; generated when absent' })
  @IsOptional()
  @IsUUID('all', { message: 'actionId must be a UUID' })
  actionId?: string;

  @IsIdentifier({ optional: true, example: 'trace-7f3a' })
  traceId?: string;

  @IsIdentifier({ example: 'gmail_send' })
  tool!: string;

  @ApiPropertyOptional({ maxLength: 500, example: 'delphine@acme.fr' })
  @IsOptional()
  @IsString({ message: 'target must be a string' })
  @Length(1, 500, { message: 'target must be 1 to 500 characters long' })
  target?: string;

  @ApiProperty({ maxLength: 2000, example: 'Relance facture Q2' })
  @IsString({ message: 'summary must be a string' })
  @Length(1, 2000, { message: 'summary must be 1 to 2000 characters long' })
  summary!: string;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  @IsOptional()
  @IsObject({ message: 'input must be a JSON object' })
  input?: Record<string, unknown>;

  @IsIdentifier({ example: 'telegram' })
  channel!: string;

  @ApiPropertyOptional({ default: true, description: 'false: the action starts confirmed' })
  @IsOptional()
  @IsBoolean({ message: 'requiresConfirmation must be true or false' })
  requiresConfirmation?: boolean;

  @ApiPropertyOptional({
    minimum: 1,
    maximum: 604800,
    default: DEFAULT_ACTION_TTL_SECONDS,
    description: 'A pending action expires after this many seconds',
  })
  @IsOptional()
  @IsInt({ message: 'ttlSeconds must be an integer from 1 to 604800' })
  @Min(1, { message: 'ttlSeconds must be an integer from 1 to 604800' })
  @Max(604800, { message: 'ttlSeconds must be an integer from 1 to 604800' })
  ttlSeconds?: number;
}

export class ProposeActionResponse {
  @ApiProperty({ format: 'uuid' }) actionId!: string;
  @ApiProperty() traceId!: string;
  @ApiProperty({ enum: ACTION_STATUSES }) status!: ActionStatus;
  @ApiPropertyOptional({ format: 'date-time' }) expiresAt?: string;
  @ApiProperty() position!: number;
}

export class ConfirmActionBody {
  @IsIdentifier({ example: 'web' })
  channel!: string;
}

export class ExecuteActionBody {
  @IsIdentifier({ optional: true })
  channel?: string;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  @IsOptional()
  @IsObject({ message: 'result must be a JSON object' })
  result?: Record<string, unknown>;
}

export class AbortActionBody {
  @IsIdentifier({ optional: true })
  channel?: string;

  @ApiPropertyOptional({ maxLength: 500 })
  @IsOptional()
  @IsString({ message: 'reason must be a string' })
  @MaxLength(500, { message: 'reason must be at most 500 characters' })
  reason?: string;
}

export class FailActionBody {
  @ApiProperty({ maxLength: 2000 })
  @IsString({ message: 'error must be a string' })
  @Length(1, 2000, { message: 'error must be 1 to 2000 characters long' })
  error!: string;
}

export class ActionTransitionResponse {
  @ApiProperty({ enum: ACTION_STATUSES }) status!: ActionStatus;
  @ApiProperty() position!: number;
}
