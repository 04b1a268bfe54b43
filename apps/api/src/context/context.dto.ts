import { ApiPropertyOptional, IntersectionType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsUUID, Max, Min } from 'class-validator';
import { LOCALES, type Locale } from '@engram/domain';
import { CONTEXT_FORMATS, type ContextFormat } from '@engram/prompt-blocks';
import { IsIdentifier } from '../http/identifier';
import { ReadQuery } from '../read-models/read-query';

/** What a context is asked with: the query of `GET …/context`, the arguments of `get_context`. */
export class ContextArgs {
  @IsIdentifier({ optional: true, example: 'sess-42' })
  sessionId?: string;

  @IsIdentifier({ optional: true, example: 'chat-web' })
  agentId?: string;

  @ApiPropertyOptional({ enum: LOCALES, description: "Default: the workspace policy's locale" })
  @IsOptional()
  @IsIn(LOCALES, { message: `locale must be one of: ${LOCALES.join(', ')}` })
  locale?: Locale;

  @ApiPropertyOptional({ minimum: 50, maximum: 200000 })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'maxTokens must be an integer from 50 to 200000' })
  @Min(50, { message: 'maxTokens must be an integer from 50 to 200000' })
  @Max(200000, { message: 'maxTokens must be an integer from 50 to 200000' })
  maxTokens?: number;

  @ApiPropertyOptional({
    enum: CONTEXT_FORMATS,
    default: 'blocks',
    description:
      'blocks: every block and the system prompt; messages: `messages`, the system block then the live window as user and assistant turns, what chat APIs take (Anthropic: pass the system message as the `system` parameter and the rest as `messages`)',
  })
  @IsOptional()
  @IsIn(CONTEXT_FORMATS, { message: `format must be one of: ${CONTEXT_FORMATS.join(', ')}` })
  format?: ContextFormat;

  @ApiPropertyOptional({
    format: 'uuid',
    description:
      'A message left out of the live window: the turn the agent is about to send the model itself',
  })
  @IsOptional()
  @IsUUID('all', { message: 'excludeMessageId must be a UUID' })
  excludeMessageId?: string;
}

export class ContextQuery extends IntersectionType(ContextArgs, ReadQuery) {}
