import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsISO8601, IsOptional, ValidateIf } from 'class-validator';

export class MemorySettingsBody {
  @ApiProperty({ description: 'Off: messages are still recorded, nothing is extracted' })
  @IsBoolean({ message: 'enabled must be true or false' })
  enabled!: boolean;

  @ApiPropertyOptional({
    format: 'date-time',
    nullable: true,
    description: 'No extraction until then; null or absent lifts the pause',
  })
  @IsOptional()
  @ValidateIf((_, value) => value !== null)
  @IsISO8601(
    { strict: true, strictSeparator: true },
    { message: 'pausedUntil must be an ISO-8601 date-time or null' },
  )
  pausedUntil?: string | null;
}

export class MemorySettingsResponse {
  @ApiProperty() enabled!: boolean;
  @ApiProperty({ nullable: true, format: 'date-time' }) pausedUntil!: string | null;
  @ApiProperty({ enum: ['enabled', 'disabled', 'paused'] }) status!:
    'enabled' | 'disabled' | 'paused';
  @ApiPropertyOptional({ description: 'Position of the change (on PUT)' }) position?: number;
}
