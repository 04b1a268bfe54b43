export * from './action-events';
export * from './action-decider';
