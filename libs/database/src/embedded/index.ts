export * from './start-embedded-postgres';
export { EmbeddedPostgresError } from './embedded-postgres-error';
export { packagedServer, type PackagedServer } from './server-binaries';
