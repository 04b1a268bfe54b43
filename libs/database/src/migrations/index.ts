import { EventStore1764400000000 } from './1764400000000-event-store';
import { ProjectionCheckpoints1764400000001 } from './1764400000001-projection-checkpoints';

export const CORE_MIGRATIONS = [EventStore1764400000000, ProjectionCheckpoints1764400000001];
