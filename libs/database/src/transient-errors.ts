/**
 * SQLSTATE classes that say nothing about the data: the connection (08), a transaction rolled back
 * by concurrency (40: serialization failure, deadlock), resources (53), an operator or a timeout
 * (57: shutdown, query_canceled), the server's own system errors (58), and a lock not available.
 */
const TRANSIENT_CLASSES = ['08', '40', '53', '57', '58'];
const TRANSIENT_CODES = [
  '55P03',
  '55006',
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EAI_AGAIN',
];
const TRANSIENT_MESSAGES =
  /Connection terminated|connection error and is not queryable|timeout exceeded when trying to connect|Client has encountered a connection error|the database system is (starting up|shutting down)/i;

/**
 * True when trying again later may succeed whatever the input: such failures are retried, never
 * charged to an event. Everything else (data PostgreSQL refuses, a bug in a projection) is.
 */
export function isTransientError(error: unknown): boolean {
  if (error === null || typeof error !== 'object') return false;
  const driver = (error as { driverError?: unknown }).driverError;
  if (driver && driver !== error && isTransientError(driver)) return true;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && isTransientCode(code)) return true;
  return typeof message === 'string' && TRANSIENT_MESSAGES.test(message);
}

function isTransientCode(code: string): boolean {
  if (TRANSIENT_CODES.includes(code)) return true;
  return /^[0-9A-Z]{5}$/.test(code) && TRANSIENT_CLASSES.includes(code.slice(0, 2));
}
