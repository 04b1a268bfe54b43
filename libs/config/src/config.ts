import { isAbsolute, resolve } from 'node:path';
import { LLM_VARIABLES, llmOptionsFromEnv, type LlmOptions } from '@engram/llm';
import { LOG_LEVELS, type LogLevel } from '@engram/observability';
import { formatDuration, parseDurationSeconds } from './duration';
import { DEFAULT_HOST, isHost, isLoopbackHost } from './host';

export type EngramConfig = Readonly<{
  port: number;
  /** HOST: the address the API listens on (this machine only by default). */
  host: string;
  /** LOG_LEVEL: the JSON logs' threshold (info by default; personal text is never logged at info). */
  logLevel: LogLevel;
  /** ENGRAM_METRICS_PORT: where the separate worker serves /metrics (the API serves its own). */
  metricsPort: number;
  /** Postgres for read models (and events unless eventStoreUrl is set); undefined = embedded. */
  databaseUrl: string | undefined;
  eventStoreUrl: string | undefined;
  dataDir: string;
  jwt: Readonly<{
    secret: string | undefined;
    jwksUrl: string | undefined;
    issuer: string | undefined;
    audience: string | undefined;
    /**
     * ENGRAM_JWT_MAX_AGE: the longest a token may live, from its `iat` (both its own exp − iat and
     * its age now), in seconds.
     */
    maxAgeSeconds: number;
  }>;
  /**
   * ENGRAM_MASTER_KEY: 32 bytes that wrap every user's data key (personal data is encrypted at rest).
   * Required with DATABASE_URL; the embedded default generates one in its data folder.
   */
  masterKey: Buffer | undefined;
  appDbPassword: string | undefined;
  projectorDbPassword: string | undefined;
  /** Run the projection worker inside the API process (the embedded default). */
  runWorker: boolean;
  /**
   * ENGRAM_DEV_TOKENS: the console's shortcut that signs admin tokens for anyone who reaches it. Only
   * with the embedded default's generated secret and a loopback HOST (see devTokens below).
   */
  devTokens: boolean;
  /** At most one identity-card regeneration per user per this many seconds. */
  identityCardDebounceSeconds: number;
  /** How often the schedulers (memory and action expiry) look for due work. */
  schedulerIntervalSeconds: number;
  /**
   * Workers share the background partitions through leases of this length: a worker that dies is
   * replaced within about 4/3 of it.
   */
  leaseTtlSeconds: number;
  /**
   * ENGRAM_PARTITIONS: each projection and process manager runs as this many partitions (by a hash of
   * the owner), each with its own checkpoint and lease; the same in every process of a database.
   */
  partitions: number;
  /**
   * ENGRAM_REACTIONS_IN_FLIGHT: owners each process-manager partition reacts for at once (each
   * owner's events in order). Unset: the worker's default, more with a remote LLM than offline.
   */
  reactionsInFlight: number | undefined;
  /**
   * ENGRAM_WORKER_ROLE: which background partitions this process's worker takes: `all` (the
   * default), `projections` (the read models an owner reads back) or `process-managers` (the
   * reactors and the scheduled jobs), so that each kind can have processes, cores or a priority of
   * its own. The leases give each role's partitions a fair share among the workers that run it.
   */
  workerRole: WorkerRole;
  /**
   * ENGRAM_KEY_RATE_LIMIT: requests per minute each agent service key may make (a sliding minute, in
   * each API process); 0 turns the limit off. JWT callers are not limited by it.
   */
  keyRateLimitPerMinute: number;
  /** The LLM's settings (OPENAI_API_KEY, OPENAI_BASE_URL, ENGRAM_LLM_MODEL...): no key, the offline default. */
  llm: LlmOptions;
}>;

export const WORKER_ROLES = ['all', 'projections', 'process-managers'] as const;
export type WorkerRole = (typeof WORKER_ROLES)[number];

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(variable: string, problem: string) {
    super(`Invalid configuration: ${variable} ${problem}`);
  }
}

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Every variable loadConfig reads: the README's configuration table lists exactly these (a test
 * compares them), and a variable read here but missing from the list does not compile.
 */
export const SERVER_VARIABLES = [
  'PORT',
  'HOST',
  'LOG_LEVEL',
  'ENGRAM_METRICS_PORT',
  'DATABASE_URL',
  'EVENTSTORE_URL',
  'ENGRAM_DATA_DIR',
  'ENGRAM_JWT_SECRET',
  'ENGRAM_JWKS_URL',
  'ENGRAM_JWT_ISSUER',
  'ENGRAM_JWT_AUDIENCE',
  'ENGRAM_JWT_MAX_AGE',
  'ENGRAM_MASTER_KEY',
  'ENGRAM_APP_DB_PASSWORD',
  'ENGRAM_PROJECTOR_DB_PASSWORD',
  'ENGRAM_RUN_WORKER',
  'ENGRAM_DEV_TOKENS',
  'ENGRAM_IDENTITY_CARD_DEBOUNCE_SECONDS',
  'ENGRAM_SCHEDULER_INTERVAL_SECONDS',
  'ENGRAM_LEASE_TTL_SECONDS',
  'ENGRAM_PARTITIONS',
  'ENGRAM_REACTIONS_IN_FLIGHT',
  'ENGRAM_WORKER_ROLE',
  'ENGRAM_KEY_RATE_LIMIT',
] as const;
type Variable = (typeof SERVER_VARIABLES)[number];

/** The whole configuration's variables: the server's and the LLM's. */
export const CONFIG_VARIABLES: readonly string[] = [...SERVER_VARIABLES, ...LLM_VARIABLES];

export function loadConfig(env: Env = process.env): EngramConfig {
  const databaseUrl = optionalUrl(env, 'DATABASE_URL', ['postgres:', 'postgresql:']);
  const listenHost = host(env);
  const secret = jwtSecret(env);
  return {
    port: port(env, 'PORT', 3000),
    host: listenHost,
    logLevel: logLevel(env),
    metricsPort: port(env, 'ENGRAM_METRICS_PORT', 9464),
    databaseUrl,
    eventStoreUrl: eventStoreUrl(env),
    dataDir: dataDir(env),
    jwt: {
      secret,
      jwksUrl: optionalUrl(env, 'ENGRAM_JWKS_URL', ['https:', 'http:']),
      issuer: nonEmpty(env, 'ENGRAM_JWT_ISSUER'),
      audience: nonEmpty(env, 'ENGRAM_JWT_AUDIENCE'),
      maxAgeSeconds: jwtMaxAge(env),
    },
    masterKey: masterKey(env),
    appDbPassword: nonEmpty(env, 'ENGRAM_APP_DB_PASSWORD'),
    projectorDbPassword: nonEmpty(env, 'ENGRAM_PROJECTOR_DB_PASSWORD'),
    runWorker: flag(env, 'ENGRAM_RUN_WORKER', true),
    devTokens: devTokens(env, {
      generatedSecret: databaseUrl === undefined && secret === undefined,
      loopback: isLoopbackHost(listenHost),
    }),
    identityCardDebounceSeconds: seconds(env, 'ENGRAM_IDENTITY_CARD_DEBOUNCE_SECONDS', 30),
    schedulerIntervalSeconds: seconds(env, 'ENGRAM_SCHEDULER_INTERVAL_SECONDS', 30),
    leaseTtlSeconds: Math.max(0.3, seconds(env, 'ENGRAM_LEASE_TTL_SECONDS', 15)),
    partitions: integerIn(env, 'ENGRAM_PARTITIONS', 4, 1, 64),
    reactionsInFlight:
      nonEmpty(env, 'ENGRAM_REACTIONS_IN_FLIGHT') === undefined
        ? undefined
        : integerIn(env, 'ENGRAM_REACTIONS_IN_FLIGHT', 1, 1, 64),
    workerRole: oneOf(env, 'ENGRAM_WORKER_ROLE', WORKER_ROLES, 'all'),
    keyRateLimitPerMinute: integerIn(env, 'ENGRAM_KEY_RATE_LIMIT', 600, 0, 1_000_000),
    llm: llmOptions(env),
  };
}

function nonEmpty(env: Env, name: Variable): string | undefined {
  const value = env[name];
  if (value === undefined) return undefined;
  if (value.trim() === '') throw new ConfigError(name, 'is set but empty');
  return value;
}

function port(env: Env, name: Variable, fallback: number): number {
  return integerIn(env, name, fallback, 0, 65535);
}

function logLevel(env: Env): LogLevel {
  return oneOf(env, 'LOG_LEVEL', LOG_LEVELS, 'info');
}

function oneOf<T extends string>(env: Env, name: Variable, allowed: readonly T[], fallback: T): T {
  const raw = nonEmpty(env, name)?.toLowerCase() ?? fallback;
  const value = allowed.find((candidate) => candidate === raw);
  if (value === undefined) {
    throw new ConfigError(name, `must be one of ${allowed.join(', ')}, got "${raw}"`);
  }
  return value;
}

function optionalUrl(env: Env, name: Variable, protocols: readonly string[]): string | undefined {
  const raw = nonEmpty(env, name);
  if (raw === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(name, 'is not a valid URL');
  }
  if (!protocols.includes(url.protocol)) {
    throw new ConfigError(
      name,
      `must start with ${protocols.join(' or ')}//, got ${url.protocol}//`,
    );
  }
  return raw;
}

/**
 * KurrentDB's scheme names the same server and options, but client 6.x parses only `esdb://` and
 * `esdb+discover://`: a `kurrentdb://` (or `kurrent://`) URL is given to it under the esdb scheme.
 */
function eventStoreUrl(env: Env): string | undefined {
  const raw = optionalUrl(env, 'EVENTSTORE_URL', [
    'esdb:',
    'esdb+discover:',
    'kurrentdb:',
    'kurrentdb+discover:',
    'kurrent:',
    'kurrent+discover:',
  ]);
  return raw?.replace(/^kurrent(?:db)?(\+discover)?:/i, 'esdb$1:');
}

function dataDir(env: Env): string {
  const raw = nonEmpty(env, 'ENGRAM_DATA_DIR') ?? '.data';
  return isAbsolute(raw) ? raw : resolve(process.cwd(), raw);
}

function host(env: Env): string {
  const raw = nonEmpty(env, 'HOST');
  if (raw === undefined) return DEFAULT_HOST;
  if (!isHost(raw)) {
    throw new ConfigError('HOST', `must be an IP address or a host name, got "${raw}"`);
  }
  return raw;
}

/** A year: longer-lived bearer tokens are a standing credential, not a session. */
const MAX_JWT_MAX_AGE = 365 * 86_400;

function jwtMaxAge(env: Env): number {
  const raw = nonEmpty(env, 'ENGRAM_JWT_MAX_AGE');
  if (raw === undefined) return 86_400;
  const value = parseDurationSeconds(raw);
  if (value === undefined || value < 1 || value > MAX_JWT_MAX_AGE) {
    throw new ConfigError(
      'ENGRAM_JWT_MAX_AGE',
      `must be a duration from 1s to ${formatDuration(MAX_JWT_MAX_AGE)} (seconds, or 30m, 12h, 7d), got "${raw}"`,
    );
  }
  return value;
}

/**
 * The dev-token shortcut signs an admin token for whoever asks, so it may only exist where that
 * asker can already read the secret: the embedded default's generated secret (no DATABASE_URL, no
 * ENGRAM_JWT_SECRET) on a loopback listener. Asked for anywhere else, the start stops rather than
 * ignoring the request: an operator who set it expects the shortcut, and a warning in JSON logs is
 * easy to miss, while running with it is not an option.
 */
function devTokens(env: Env, where: Readonly<{ generatedSecret: boolean; loopback: boolean }>) {
  const allowed = where.generatedSecret && where.loopback;
  const wanted = flag(env, 'ENGRAM_DEV_TOKENS', allowed);
  if (wanted && !allowed) {
    throw new ConfigError(
      'ENGRAM_DEV_TOKENS',
      'can only be on in the embedded default (no DATABASE_URL, no ENGRAM_JWT_SECRET) listening on a ' +
        'loopback HOST: it signs admin tokens for anyone who reaches the port',
    );
  }
  return wanted;
}

function jwtSecret(env: Env): string | undefined {
  const secret = nonEmpty(env, 'ENGRAM_JWT_SECRET');
  if (secret !== undefined && Buffer.byteLength(secret) < 32) {
    throw new ConfigError('ENGRAM_JWT_SECRET', 'must be at least 32 bytes long for HS256');
  }
  return secret;
}

function masterKey(env: Env): Buffer | undefined {
  const raw = nonEmpty(env, 'ENGRAM_MASTER_KEY');
  return raw === undefined ? undefined : parseMasterKey('ENGRAM_MASTER_KEY', raw);
}

export const MASTER_KEY_BYTES = 32;

/**
 * A master key as written in the environment or a secrets file: base64 (standard or URL-safe) of
 * exactly 32 bytes. `name` is what the error names (the variable, or the file).
 */
export function parseMasterKey(name: string, raw: string): Buffer {
  const value = raw.trim();
  const key = /^[A-Za-z0-9+/_-]+={0,2}$/.test(value) ? Buffer.from(value, 'base64') : undefined;
  if (key?.length !== MASTER_KEY_BYTES) {
    throw new ConfigError(
      name,
      `must be the base64 encoding of exactly ${MASTER_KEY_BYTES} random bytes (openssl rand -base64 32)`,
    );
  }
  return key;
}

function seconds(env: Env, name: Variable, fallback: number): number {
  const raw = nonEmpty(env, name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0 || value > 86_400) {
    throw new ConfigError(name, `must be a number of seconds from 0 to 86400, got "${raw}"`);
  }
  return value;
}

function llmOptions(env: Env): LlmOptions {
  try {
    return llmOptionsFromEnv(env);
  } catch (error) {
    throw new ConfigError('(LLM)', (error as Error).message);
  }
}

function flag(env: Env, name: Variable, fallback: boolean): boolean {
  const raw = nonEmpty(env, name);
  if (raw === undefined) return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw.toLowerCase())) return true;
  if (['0', 'false', 'no', 'off'].includes(raw.toLowerCase())) return false;
  throw new ConfigError(name, `must be true or false, got "${raw}"`);
}

function integerIn(env: Env, name: Variable, fallback: number, min: number, max: number): number {
  const raw = nonEmpty(env, name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(name, `must be an integer from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}
