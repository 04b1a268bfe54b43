export * from './lease-table';
export * from './lease-coordinator';
