export * from './event-store.port';
export * from './errors';
export * from './codec';
export * from './unparsed-event';
export * from './postgres/postgres-event-store';
export {
  CLOSED_OWNERS_SCHEMA,
  DELETED_STREAMS_SCHEMA,
  EVENT_STORE_SCHEMA,
} from './postgres/schema';
export { APPEND_BATCH_FUNCTION } from './postgres/append-function';
export { ResilientClient, createResilientPool } from './postgres/resilient-pool';
export { statementName } from './postgres/statement-names';
export { batched } from './batched';
export * from './handle-command';
export { StreamStates, type KnownStreamState } from './stream-states';
export * from './in-memory/in-memory-event-store';
