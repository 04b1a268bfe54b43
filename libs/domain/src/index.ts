export * from './event';
export * from './event-definition';
export * from './decider';
export * from './identifiers';
export * from './streams';
export * from './clock';
export * from './catalog';
export * from './messages';
