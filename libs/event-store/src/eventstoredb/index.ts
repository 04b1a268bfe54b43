export { EventStoreDbEventStore } from './eventstoredb-event-store';
export {
  toLogicalStreamName,
  toPhysicalStreamName,
  userCategory,
  userCategoryStream,
  workspaceCategory,
} from './physical-stream-name';
