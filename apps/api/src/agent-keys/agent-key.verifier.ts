import { Inject, Injectable } from '@nestjs/common';
import { InvalidTokenError, ServiceKeyVerifier, type Principal } from '@engram/auth';
import { APP_DATA_SOURCE } from '@engram/platform';
import { findPresentedAgentKey, type PresentedAgentKey } from '@engram/projections';
import type { DataSource } from 'typeorm';
import { parseAgentKey, secretMatches } from './agent-key-secret';
import { AgentKeyUsageRecorder } from './agent-key-usage.recorder';

/**
 * How long this process trusts what it read of a key: a key revoked through another API process is
 * refused here within this bound (through this one, at once). An agent calls on every turn, so
 * without a cache every request would cost a read; with it, a busy key costs one read per 5 s.
 */
export const KEY_CACHE_TTL_MS = 5000;
/** Entries kept at most (unknown ids included, so that random keys cannot grow it without bound). */
const MAX_ENTRIES = 10_000;

type Entry = { rows: Promise<readonly PresentedAgentKey[]>; expiresAt: number };

export type KeyLookup = (keyId: string) => Promise<readonly PresentedAgentKey[]>;

/** The same words for an unknown id and a wrong secret: the answer never says whether an id exists. */
const UNKNOWN = 'unknown key (it may have been mistyped or never issued)';

/** Authenticates agents' service keys for AuthGuard, from the agent_keys read model. */
export class CachedAgentKeyVerifier extends ServiceKeyVerifier {
  private readonly cache = new Map<string, Entry>();
  /** Keys revoked through this process: refused at once, whatever the read model still says. */
  private readonly revokedHere = new Set<string>();

  constructor(
    private readonly lookup: KeyLookup,
    private readonly onUse: (principal: Principal & { keyId: string }) => void,
    private readonly ttlMs = KEY_CACHE_TTL_MS,
    private readonly now: () => number = () => performance.now(),
  ) {
    super();
  }

  async verify(key: string): Promise<Principal> {
    const parsed = parseAgentKey(key);
    if (!parsed) {
      throw new InvalidTokenError('malformed key (expected egk_<key id>_<secret>, as issued)');
    }
    const rows = await this.rowsOf(parsed.keyId);
    const row = rows.find((candidate) => secretMatches(parsed.secret, candidate.digest));
    if (!row) throw new InvalidTokenError(UNKNOWN);
    // Only the holder of the secret learns that the key was revoked.
    if (row.revokedAt !== null || this.revokedHere.has(row.keyId)) {
      throw new InvalidTokenError(
        'this key was revoked; ask an admin of the workspace for a new one',
      );
    }
    const principal = {
      userId: row.agentId,
      workspaceId: row.workspaceId,
      roles: ['agent'] as const,
      keyId: row.keyId,
    };
    this.onUse(principal);
    return principal;
  }

  /** A revocation made here takes effect here at once. */
  revoked(keyId: string): void {
    if (this.revokedHere.size >= MAX_ENTRIES) this.revokedHere.clear();
    this.revokedHere.add(keyId);
    this.cache.delete(keyId);
  }

  private rowsOf(keyId: string): Promise<readonly PresentedAgentKey[]> {
    const now = this.now();
    const cached = this.cache.get(keyId);
    if (cached && cached.expiresAt > now) return cached.rows;
    if (this.cache.size >= MAX_ENTRIES) this.evict(now);
    // Concurrent requests with the same key share one read; a failed read is not kept.
    const rows = this.lookup(keyId);
    this.cache.set(keyId, { rows, expiresAt: now + this.ttlMs });
    rows.catch(() => {
      if (this.cache.get(keyId)?.rows === rows) this.cache.delete(keyId);
    });
    return rows;
  }

  private evict(now: number): void {
    for (const [keyId, entry] of this.cache) if (entry.expiresAt <= now) this.cache.delete(keyId);
    // Still full (a flood of distinct ids within one TTL): the oldest go first.
    for (const keyId of this.cache.keys()) {
      if (this.cache.size < MAX_ENTRIES) break;
      this.cache.delete(keyId);
    }
  }
}

/** The verifier of the API process, reading under RLS with only the presented key id. */
@Injectable()
export class AgentKeyVerifier extends CachedAgentKeyVerifier {
  constructor(@Inject(APP_DATA_SOURCE) dataSource: DataSource, usage: AgentKeyUsageRecorder) {
    super(
      (keyId) => dataSource.transaction((manager) => findPresentedAgentKey(manager, keyId)),
      (principal) => usage.record(principal.keyId, principal.workspaceId, principal.userId),
    );
  }
}
