import { assertNever } from '@engram/domain';
import type { DecodedEvent } from '@engram/event-store';
import type { HandledBy, Projection } from '../runner/projection';
import { MemorySettings } from './memory-settings.entity';

const HANDLES = ['MemorySettingsChanged', 'MemoriesWiped'] as const;

function ownerOf(event: DecodedEvent): Pick<MemorySettings, 'workspaceId' | 'userId'> {
  return { workspaceId: event.metadata.workspaceId, userId: event.metadata.userId };
}

/** Starts from the memory profile's defaults (on, not paused, generation 0). */
export const memorySettingsProjection: Projection<MemorySettings, HandledBy<typeof HANDLES>> = {
  name: 'memory_settings',
  entity: MemorySettings,
  key: ['workspaceId', 'userId'],
  handles: HANDLES,
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
    const { event: payload } = event;
    switch (payload.type) {
      case 'MemorySettingsChanged': {
        const { data } = payload;
        const pausedUntil = data.pausedUntil === null ? null : new Date(data.pausedUntil);
        return [
          { kind: 'upsert', row: { ...current, enabled: data.enabled, pausedUntil, updatedAt } },
        ];
      }
      case 'MemoriesWiped': {
        const { data } = payload;
        return [{ kind: 'upsert', row: { ...current, generation: data.generation, updatedAt } }];
      }
      default:
        return assertNever(payload);
    }
  },
};
