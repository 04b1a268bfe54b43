import { EventStore1764400000000 } from './1764400000000-event-store';
import { ProjectionCheckpoints1764400000001 } from './1764400000001-projection-checkpoints';
import { DataKeys1764400000002 } from './1764400000002-data-keys';

export const CORE_MIGRATIONS = [
  EventStore1764400000000,
  ProjectionCheckpoints1764400000001,
  DataKeys1764400000002,
];
