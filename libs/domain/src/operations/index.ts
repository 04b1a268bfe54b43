export * from './parked-event-events';
export * from './parked-event-decider';
