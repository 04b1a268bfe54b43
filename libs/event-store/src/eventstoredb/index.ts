export {
  DEFAULT_CATEGORY_WAIT,
  EventStoreDbEventStore,
  type EventStoreDbOptions,
} from './eventstoredb-event-store';
export type { CategoryProjectionReport } from './category-projection-check';
export type { ForeignEvent, ForeignEventHandler } from './engram-events';
export {
  toLogicalStreamName,
  toPhysicalStreamName,
  toPhysicalStreamPrefixes,
  userCategory,
  userCategoryStream,
  workspaceCategory,
} from './physical-stream-name';
