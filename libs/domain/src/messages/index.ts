export * from './message-events';
export * from './message-decider';
