export * from './activity-entry';
export * from './activity-text';
