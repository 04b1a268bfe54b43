import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { ReadQuery } from '../read-models/read-query';

/**
 * `?cursor&limit` of every paginated list: the cursor is opaque, the limit 1 to 100 (default 20);
 * a list is a read of a read model, so `minPosition` too.
 */
export class PageQuery extends ReadQuery {
  @ApiPropertyOptional({ description: 'nextCursor of the previous page' })
  @IsOptional()
  @IsString({ message: 'cursor must be a string' })
  @MaxLength(200, { message: 'cursor is not a cursor this API gave' })
  cursor?: string;

  @ApiPropertyOptional({ minimum: 1, maximum: 100, default: 20 })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'limit must be an integer from 1 to 100' })
  @Min(1, { message: 'limit must be an integer from 1 to 100' })
  @Max(100, { message: 'limit must be an integer from 1 to 100' })
  limit?: number;
}
