export * from './memory-policy';
export * from './policy-events';
export * from './policy-decider';
