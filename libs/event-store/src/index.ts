export * from './event-store.port';
export * from './errors';
export * from './codec';
export * from './postgres/postgres-event-store';
export { EVENT_STORE_SCHEMA } from './postgres/schema';
export { createResilientPool } from './postgres/resilient-pool';
export { batched } from './batched';
export * from './handle-command';
