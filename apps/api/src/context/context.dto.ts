import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';
import { LOCALES, type Locale } from '@engram/domain';
import { IsIdentifier } from '../http/identifier';
import { ReadQuery } from '../read-models/read-query';

export class ContextQuery extends ReadQuery {
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
}
