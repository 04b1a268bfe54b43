export * from './mcp-tool';
export * from './tool-errors';
export * from './acting-user';
export * from './engram-mcp-server';
