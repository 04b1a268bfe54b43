export {
  EngramClient,
  type MyMemoriesFilters,
  type ReviewQueueFilters,
  type ToolDefinitions,
  type ToolFormat,
} from './engram-client';
export {
  EngramUser,
  type ContextOptions,
  type ExportedEvent,
  type ToolCallResult,
} from './engram-user';
export type { EngramClientOptions } from './caller';
export { EngramError } from './errors';
export type { RetryOptions, TokenSource } from './transport';
export { paginate, type Page } from './pages';
export { ROUTES } from './routes';
export type * from './generated/api-types';
