export * from './roles';
export * from './rls';
export * from './run-as';
export * from './data-sources';
export * from './embedded';
export { CORE_MIGRATIONS } from './migrations';
export * from './transient-errors';
export * from './prepared-query';
export * from './pipelined-transaction';
