import { BadRequestException, Injectable, type PipeTransform } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { DateTime } from 'luxon';
import {
  MEMORY_KINDS,
  REPORTED_MEMORY_STATUSES,
  type MemoryKind,
  type ReportedMemoryStatus,
} from '@engram/domain';
import { INSTANT_RANGE, isInstantInRange } from '../http/instant';

/** A full date-time with a zone: an audit instant must not depend on the server's time zone. */
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}(:?\d{2})?)$/i;

/** Validates the `timestamp` path parameter and returns it as an ISO-8601 UTC instant. */
@Injectable()
export class InstantParam implements PipeTransform<string, string> {
  constructor(private readonly name: string) {}

  transform(value: string): string {
    const parsed = ISO_INSTANT.test(value) ? DateTime.fromISO(value, { setZone: true }) : null;
    if (!parsed?.isValid || !isInstantInRange(parsed.toJSDate())) {
      throw new BadRequestException(
        `path parameter ${this.name} must be an ISO-8601 date-time with a time zone, e.g. 2026-03-01T10:00:00Z, ${INSTANT_RANGE}`,
      );
    }
    return parsed.toUTC().toISO();
  }
}

export class SourceMessageResponse {
  @ApiProperty() messageId!: string;
  @ApiProperty({ maxLength: 200, description: 'The beginning of the message (200 characters)' })
  excerpt!: string;
  @ApiProperty({ format: 'date-time' }) at!: string;
}

export class MemoryHistoryEntryResponse {
  @ApiProperty({ format: 'date-time' }) at!: string;
  @ApiProperty({
    enum: [
      'detected',
      'reinforced',
      'approved',
      'rejected',
      'evicted',
      'deleted',
      'superseded',
      'used',
    ],
    description: 'An expiry is a `rejected` step by `{ kind: expiry }`, reason `expired`',
  })
  event!: string;
  @ApiPropertyOptional({
    description: '{ kind: person, userId, role } | { kind: policy } | { kind: expiry }',
  })
  by?: object;
  @ApiPropertyOptional() confidence?: number;
  @ApiPropertyOptional() reason?: string;
  @ApiPropertyOptional({ description: 'The message that detected or reinforced it' })
  messageId?: string;
  @ApiPropertyOptional({ description: 'The newer memory that replaced it (superseded step)' })
  supersededBy?: string;
}

export class MemoryAsOfResponse {
  @ApiProperty({ format: 'uuid' }) memoryId!: string;
  @ApiProperty({ enum: MEMORY_KINDS }) kind!: MemoryKind;
  @ApiProperty({ type: String, nullable: true, description: 'null once deleted, or erased' })
  content!: string | null;
  @ApiProperty({ minimum: 0, maximum: 1 }) confidence!: number;
  @ApiProperty({
    enum: REPORTED_MEMORY_STATUSES,
    description: 'A candidate nobody reviewed in time is rejected, reason `expired` (seed 002)',
  })
  status!: ReportedMemoryStatus;
  @ApiPropertyOptional({
    description: 'Why it was rejected: the reviewer’s reason, or `expired`',
  })
  reason?: string;
  @ApiPropertyOptional({
    description: 'Once superseded: the id of the newer memory that replaced it',
  })
  supersededBy?: string;
  @ApiPropertyOptional({ format: 'date-time' }) dueAt?: string;
  @ApiProperty({ description: 'Wipe generation' }) generation!: number;
  @ApiProperty({ type: SourceMessageResponse, nullable: true })
  sourceMessage!: SourceMessageResponse | null;
  @ApiProperty({ type: [MemoryHistoryEntryResponse] }) history!: MemoryHistoryEntryResponse[];
}

export class MemoriesAsOfResponse {
  @ApiProperty() userId!: string;
  @ApiProperty({ format: 'date-time' }) asOf!: string;
  @ApiProperty({ type: [MemoryAsOfResponse] }) items!: MemoryAsOfResponse[];
}
