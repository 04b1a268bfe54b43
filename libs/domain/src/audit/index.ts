export * from './audit-events';
export * from './memories-as-of';
export * from './audit-access-decider';
