export * from './webhook-subscriptions';
export * from './webhook-events';
export * from './webhook-decider';
