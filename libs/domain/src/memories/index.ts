export * from './memory-kinds';
export * from './normalize-content';
export * from './memory-events';
export * from './memory-decider';
export * from './memory-fold';
export * from './memory-ids';
export * from './memory-cap';
export * from './reported-status';
