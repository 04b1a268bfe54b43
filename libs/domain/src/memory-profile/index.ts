export * from './memory-profile-events';
export * from './memory-profile-decider';
export * from './memory-status';
