/**
 * Minting tokens without the rest of `@engram/auth`: its guard loads @nestjs/core, which a CLI
 * command that only signs a token (`engram token`, no database, no server) must not pay for.
 */
export * from './mint-token';
