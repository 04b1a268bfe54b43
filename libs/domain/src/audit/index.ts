export * from './audit-events';
export * from './memories-as-of';
