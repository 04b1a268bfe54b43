import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, ValidateBy, isISO8601 } from 'class-validator';

/**
 * The instants a client may give, in UTC. Beyond 9999 `toISOString` writes `+010000-…`, which the
 * read models cannot parse back (an offset is enough to get there: `9999-12-31T23:00:00-12:00`), and
 * PostgreSQL has no year 0: one such date in an event failed its projections for good. Nothing
 * Engram records happened before 1970.
 */
const EARLIEST = Date.UTC(1970, 0, 1);
const LATEST = Date.UTC(10000, 0, 1) - 1;

/** The range as the 400s and the OpenAPI descriptions state it. */
export const INSTANT_RANGE = 'from 1970-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z (in UTC)';

/** Whether a date falls in the range (false for an invalid date). */
export function isInstantInRange(date: Date): boolean {
  const time = date.getTime();
  return time >= EARLIEST && time <= LATEST;
}

/**
 * An ISO-8601 date-time whose instant falls in the range, read the way the controllers read it
 * (`new Date`): a form the validator takes but Date cannot read (a week date) is refused too.
 */
export function isClientInstant(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    isISO8601(value, { strict: true, strictSeparator: true }) &&
    isInstantInRange(new Date(value))
  );
}

/**
 * A date-time field of a request body (the one rule for every date a client gives); documented
 * with its range. `optional` takes absent and null.
 */
export function IsInstant(options: {
  description: string;
  optional?: boolean;
  nullable?: boolean;
}) {
  const doc = {
    type: String,
    format: 'date-time',
    nullable: options.nullable,
    description: `${options.description}. ISO-8601, ${INSTANT_RANGE}`,
  };
  const message = `$property must be an ISO-8601 date-time${options.nullable ? ' or null' : ''}, ${INSTANT_RANGE}`;
  return applyDecorators(
    ...(options.optional ? [IsOptional(), ApiPropertyOptional(doc)] : [ApiProperty(doc)]),
    ValidateBy({ name: 'isInstant', validator: { validate: isClientInstant } }, { message }),
  );
}
