import type { MemoriesWiped, MemorySettingsChanged } from '@engram/domain';
import type { DecodedEvent } from '@engram/event-store';
import type { Projection } from '../runner/projection';
import { MemorySettings } from './memory-settings.entity';

function ownerOf(event: DecodedEvent): Pick<MemorySettings, 'workspaceId' | 'userId'> {
  return { workspaceId: event.metadata.workspaceId, userId: event.metadata.userId };
}

/** Starts from the memory profile's defaults (on, not paused, generation 0). */
export const memorySettingsProjection: Projection<MemorySettings> = {
  name: 'memory_settings',
  entity: MemorySettings,
  key: ['workspaceId', 'userId'],
  handles: ['MemorySettingsChanged', 'MemoriesWiped'],
  keysOf: (event) => [ownerOf(event)],
  apply: (event, rows) => {
    const owner = ownerOf(event);
    const updatedAt = new Date(event.metadata.occurredAt);
    const current: MemorySettings = rows.get(owner) ?? {
      ...owner,
      enabled: true,
      pausedUntil: null,
      generation: 0,
      updatedAt,
    };
    switch (event.event.type) {
      case 'MemorySettingsChanged': {
        const { data } = event.event as MemorySettingsChanged;
        const pausedUntil = data.pausedUntil === null ? null : new Date(data.pausedUntil);
        return [
          { kind: 'upsert', row: { ...current, enabled: data.enabled, pausedUntil, updatedAt } },
        ];
      }
      case 'MemoriesWiped': {
        const { data } = event.event as MemoriesWiped;
        return [{ kind: 'upsert', row: { ...current, generation: data.generation, updatedAt } }];
      }
      default:
        return [];
    }
  },
};
