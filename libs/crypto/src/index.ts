export * from './errors';
export * from './key-store';
export * from './data-key-cipher';
export * from './given-keys-cipher';
export { masterKeyVersion } from './aes-gcm';
export * from './memory-id-digests';
export * from './workspace-secrets';
export { LruCache } from './lru';
