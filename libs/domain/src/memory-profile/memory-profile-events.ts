import type { Event } from '../event';
import type { EventDefinition } from '../event-definition';

export type MemorySettingsChanged = Event<
  'MemorySettingsChanged',
  { enabled: boolean; pausedUntil: string | null }
>;
/** Every memory of the user is purged and the identity card reset; memories detected later start a new generation. */
export type MemoriesWiped = Event<'MemoriesWiped', { generation: number }>;

export type MemoryProfileEvent = MemorySettingsChanged | MemoriesWiped;

export const MEMORY_PROFILE_EVENT_DEFINITIONS: readonly EventDefinition[] = [
  { type: 'MemorySettingsChanged', version: 1, personalFields: [] },
  { type: 'MemoriesWiped', version: 1, personalFields: [] },
];
