export * from './agent-key-events';
export * from './agent-key-decider';
export * from './agent-key-usage-decider';
export * from './agent-key-streams';
