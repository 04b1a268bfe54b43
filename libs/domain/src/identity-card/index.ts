export * from './identity-card-events';
export * from './identity-card-decider';
