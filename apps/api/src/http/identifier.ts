import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Matches } from 'class-validator';
import { IDENTIFIER_PATTERN } from '@engram/domain';

const RULE = 'must be 1-128 characters of A-Z a-z 0-9 . _ : -';

/** A public identifier field (session, agent, trace, channel...). */
export function IsIdentifier(options: { optional?: boolean; example?: string } = {}) {
  const doc = { type: String, pattern: IDENTIFIER_PATTERN.source, example: options.example };
  return applyDecorators(
    ...(options.optional ? [IsOptional(), ApiPropertyOptional(doc)] : [ApiProperty(doc)]),
    IsString({ message: `$property ${RULE}` }),
    Matches(IDENTIFIER_PATTERN, { message: `$property ${RULE}` }),
  );
}
