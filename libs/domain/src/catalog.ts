import type { EventDefinition } from './event-definition';
import { MESSAGE_EVENT_DEFINITIONS } from './messages';

/** Every event type Engram stores. The codec refuses types that are not here. */
export const EVENT_CATALOG: readonly EventDefinition[] = [...MESSAGE_EVENT_DEFINITIONS];
