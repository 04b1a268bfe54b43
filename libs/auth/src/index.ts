export * from './principal';
export * from './token-verifier';
export * from './service-key-verifier';
export * from './mint-token';
export * from './decorators';
export * from './auth.guard';
