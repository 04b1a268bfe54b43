export * from './erasure-events';
export * from './erasure-decider';
