export * from './session-events';
export * from './session-decider';
