import { ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
  Max,
  Min,
  Validate,
  ValidateIf,
  type ValidatorConstraintInterface,
  ValidatorConstraint,
} from 'class-validator';
import { IANAZone } from 'luxon';
import { LOCALES, type Locale, type ReviewMode } from '@engram/domain';

export const REVIEW_MODES: readonly ReviewMode[] = ['auto', 'admin', 'user'];

@ValidatorConstraint({ name: 'timeZone' })
class IsTimeZone implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return typeof value === 'string' && IANAZone.isValidZone(value);
  }
  defaultMessage(): string {
    return 'timeZone must be an IANA time zone such as Europe/Paris';
  }
}

function range(name: string, min: number, max: number) {
  return [
    IsInt({ message: `${name} must be an integer from ${min} to ${max}` }),
    Min(min, { message: `${name} must be an integer from ${min} to ${max}` }),
    Max(max, { message: `${name} must be an integer from ${min} to ${max}` }),
  ];
}

/**
 * Absent keeps the current value; null is not absent: IsOptional would let it through, the policy
 * would store it and its read model refuse it. Only the fields that may be removed accept null.
 */
const Absent = () => ValidateIf((_, value) => value !== undefined);

const BUDGET_RULE = 'llmCallsPerUserPerDay must be an integer from 1 to 1000000, or null';

function apply(decorators: PropertyDecorator[]): PropertyDecorator {
  return (target, key) => decorators.forEach((decorator) => decorator(target, key));
}

/** Every field is optional: what is absent keeps its current value. */
export class MemoryPolicyBody {
  @ApiPropertyOptional({
    enum: REVIEW_MODES,
    description: 'auto (default): approved at once; admin: admins review; user: each user reviews',
  })
  @Absent()
  @IsIn(REVIEW_MODES, { message: `reviewMode must be one of: ${REVIEW_MODES.join(', ')}` })
  reviewMode?: ReviewMode;

  @ApiPropertyOptional({
    type: Number,
    minimum: 0,
    maximum: 1,
    nullable: true,
    description: 'In admin/user mode, candidates at least this confident are approved at once',
  })
  @IsOptional()
  @ValidateIf((_, value) => value !== null)
  @IsNumber({}, { message: 'autoApproveAbove must be a number from 0 to 1, or null' })
  @Min(0, { message: 'autoApproveAbove must be a number from 0 to 1, or null' })
  @Max(1, { message: 'autoApproveAbove must be a number from 0 to 1, or null' })
  autoApproveAbove?: number | null;

  @ApiPropertyOptional({
    minimum: 1,
    maximum: 365,
    default: 7,
    description:
      'Days a candidate waits for a review; then it is rejected automatically (status rejected, reason expired: seed 002)',
  })
  @Absent()
  @apply(range('pendingTtlDays', 1, 365))
  pendingTtlDays?: number;

  @ApiPropertyOptional({ minimum: 1, maximum: 200, default: 20 })
  @Absent()
  @apply(range('liveWindow', 1, 200))
  liveWindow?: number;

  @ApiPropertyOptional({ minimum: 1, maximum: 200, default: 10 })
  @Absent()
  @apply(range('summaryBatch', 1, 200))
  summaryBatch?: number;

  @ApiPropertyOptional({
    minimum: 1,
    maximum: 10000,
    default: 200,
    description:
      'Active (pending and approved) memories per user. Past it, the least recently used fact approved automatically (the policy) or by its user is evicted; a memory an admin approved is never evicted (seed 002: approved memories never expire unless deleted), nor any other kind, so the cap may be exceeded',
  })
  @Absent()
  @apply(range('userMemoryCap', 1, 10000))
  userMemoryCap?: number;

  @ApiPropertyOptional({ default: 'Europe/Paris' })
  @Absent()
  @Validate(IsTimeZone)
  timeZone?: string;

  @ApiPropertyOptional({ enum: LOCALES, default: 'fr' })
  @Absent()
  @IsIn(LOCALES, { message: `locale must be one of: ${LOCALES.join(', ')}` })
  locale?: Locale;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: 1_000_000,
    nullable: true,
    description:
      'Extraction and summary calls per user per day (in timeZone); past it that work waits until the next day, recorded and shown to the user (GET /v1/me/llm-usage). Absent from the policy, or null: no budget (the default)',
  })
  @IsOptional()
  @ValidateIf((_, value) => value !== null)
  @IsInt({ message: BUDGET_RULE })
  @Min(1, { message: BUDGET_RULE })
  @Max(1_000_000, { message: BUDGET_RULE })
  llmCallsPerUserPerDay?: number | null;
}
