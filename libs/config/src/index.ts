export * from './config';
export * from './local-secrets';
export * from './duration';
export * from './host';
export * from './signing-secret';
