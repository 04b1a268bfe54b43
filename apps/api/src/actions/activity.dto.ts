import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { LOCALES, type Locale } from '@engram/domain';
import { PageQuery } from '../http/page-query';

export class ActivityQuery extends PageQuery {
  @ApiPropertyOptional({
    enum: LOCALES,
    description:
      "The language of titles and summaries; else the Accept-Language header's, else the workspace policy's locale",
  })
  @IsOptional()
  @IsIn(LOCALES, { message: `locale must be one of: ${LOCALES.join(', ')}` })
  locale?: Locale;
}

export class ActivityEventResponse {
  @ApiProperty({ example: 'ActionProposed' }) type!: string;
  @ApiProperty({ format: 'date-time' }) at!: string;
  @ApiPropertyOptional({ example: 'telegram' }) channel?: string;
  @ApiProperty({
    description: 'One line in the answer’s language (Content-Language)',
    example: 'Action proposée via Telegram : gmail_send → delphine@acme.fr « Relance facture Q2 »',
  })
  summary!: string;
}

export class ActivityGroupResponse {
  @ApiPropertyOptional({ description: 'Absent for an event without a trace (a group of one)' })
  traceId?: string;
  @ApiProperty({
    description: "The action the group is about, else its first event's summary",
    example: 'gmail_send → delphine@acme.fr « Relance facture Q2 »',
  })
  title!: string;
  @ApiProperty({ type: [String], description: 'Distinct, in order of appearance' })
  channels!: string[];
  @ApiProperty({ format: 'date-time' }) firstAt!: string;
  @ApiProperty({ format: 'date-time' }) lastAt!: string;
  @ApiProperty({ type: [ActivityEventResponse], description: 'Oldest first' })
  events!: ActivityEventResponse[];
}

export class ActivityResponse {
  @ApiProperty({
    type: [ActivityGroupResponse],
    description:
      'Groups newest first (by their first event); one group per trace, an event without a trace is a group of one',
  })
  items!: ActivityGroupResponse[];
  @ApiPropertyOptional({ type: String, nullable: true }) nextCursor!: string | null;
}
