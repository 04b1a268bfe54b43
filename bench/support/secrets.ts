import { randomBytes } from 'node:crypto';
import { mintToken } from '@engram/auth';
import type { Role } from '@engram/domain';

/** The secrets the bench gives the processes it starts (fresh each run). */
export const BENCH_JWT_SECRET = randomBytes(32).toString('hex');
export const BENCH_MASTER_KEY = randomBytes(32);

export function benchToken(workspaceId: string, userId: string, roles: Role[]): Promise<string> {
  return mintToken(BENCH_JWT_SECRET, { userId, workspaceId, roles }, 2 * 3600);
}
