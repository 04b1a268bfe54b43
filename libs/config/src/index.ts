export * from './config';
export * from './local-secrets';
