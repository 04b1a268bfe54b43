export * from './tokens';
export * from './prepare-runtime';
export * from './create-event-store';
export * from './create-codec';
export * from './infrastructure.module';
export * from './background-worker';
export * from './leases';
export * from './graceful-shutdown';
