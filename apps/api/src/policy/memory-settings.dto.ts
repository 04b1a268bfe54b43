import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean } from 'class-validator';
import { IsInstant } from '../http/instant';

export class MemorySettingsBody {
  @ApiProperty({ description: 'Off: messages are still recorded, nothing is extracted' })
  @IsBoolean({ message: 'enabled must be true or false' })
  enabled!: boolean;

  @IsInstant({
    optional: true,
    nullable: true,
    description: 'No extraction until then; null or absent lifts the pause',
  })
  pausedUntil?: string | null;
}

export class MemorySettingsResponse {
  @ApiProperty() enabled!: boolean;
  @ApiProperty({ type: String, nullable: true, format: 'date-time' }) pausedUntil!: string | null;
  @ApiProperty({ enum: ['enabled', 'disabled', 'paused'] }) status!:
    'enabled' | 'disabled' | 'paused';
  @ApiPropertyOptional({ description: 'Position of the change (on PUT)' }) position?: number;
}
