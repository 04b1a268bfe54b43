/** The GDPR use cases the API and the CLI share: export a user's events, record an auditor's access, erase a user. */
export * from './audit-access';
export * from './erase-user';
export * from './user-export';
export * from './user-keys';
export * from './export-render-thread';
