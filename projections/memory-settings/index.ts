import { readModel } from '../read-model';
import { MemorySettings } from './memory-settings.entity';
import { MemorySettings1764400002003 } from './memory-settings.migration';
import { memorySettingsProjection } from './memory-settings.projection';

export * from './memory-settings.entity';
export * from './memory-settings.projection';
export * from './memory-settings.query';

export const memorySettingsReadModel = readModel({
  projection: memorySettingsProjection,
  entity: MemorySettings,
  migrations: [MemorySettings1764400002003],
});
