import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, IsUUID, Length } from 'class-validator';
import { MESSAGE_ROLES, type MessageRole } from '@engram/domain';
import { IsIdentifier } from '../http/identifier';
import { IsInstant } from '../http/instant';

export const MAX_MESSAGE_LENGTH = 32_000;

export class RecordMessageBody {
  @ApiPropertyOptional({ format: 'uuid', description: 'Idempotency key; generated when absent' })
  @IsOptional()
  @IsUUID('all', { message: 'messageId must be a UUID' })
  messageId?: string;

  @IsIdentifier({ example: 'sess-42' })
  sessionId!: string;

  @ApiProperty({ enum: MESSAGE_ROLES })
  @IsIn(MESSAGE_ROLES, { message: `role must be one of: ${MESSAGE_ROLES.join(', ')}` })
  role!: MessageRole;

  @IsIdentifier({ example: 'telegram' })
  channel!: string;

  @ApiProperty({ minLength: 1, maxLength: MAX_MESSAGE_LENGTH })
  @IsString({ message: 'text must be a string' })
  @Length(1, MAX_MESSAGE_LENGTH, {
    message: `text must be 1 to ${MAX_MESSAGE_LENGTH} characters long`,
  })
  text!: string;

  @IsIdentifier({ optional: true })
  agentId?: string;

  @IsIdentifier({ optional: true, example: 'trace-7f3a' })
  traceId?: string;

  @IsInstant({ optional: true, description: 'When it was said (default: now)' })
  occurredAt?: string;
}

export class RecordMessageResponse {
  @ApiProperty({ format: 'uuid' }) messageId!: string;
  @ApiProperty({
    description:
      'The trace of the message: the one given, or one derived from the message id (a retry gets the first one)',
  })
  traceId!: string;
  @ApiProperty({
    description: 'Global position of the event; pass it as minPosition to read your write',
  })
  position!: number;
}
