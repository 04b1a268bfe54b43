import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

/**
 * `?minPosition=`, declared by the query of every read of a read model (read your own writes):
 * the `position` a write answered. The wait itself is `ReadModels.catchUp`.
 */
export class ReadQuery {
  @ApiPropertyOptional({
    minimum: 0,
    description:
      'The position a write answered: wait (at most ~2 s) until the read models hold it, else 503 with Retry-After',
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'minPosition must be a non-negative integer' })
  @Min(0, { message: 'minPosition must be a non-negative integer' })
  @Max(Number.MAX_SAFE_INTEGER, { message: 'minPosition must be a non-negative integer' })
  minPosition?: number;
}
