/**
 * The PostgreSQL event store tables. Positions are handed out from the single `event_store_head` row,
 * locked by every appending transaction until it commits: appends are serialized, so positions become
 * visible in increasing order and a subscriber reading `position > checkpoint` can never skip one
 * (see ARCHITECTURE.md, "Global order without gaps"). Group commit keeps the serialization cheap.
 */
export const EVENT_STORE_SCHEMA = [
  `CREATE TABLE event_store_head (
     id boolean PRIMARY KEY DEFAULT true CHECK (id),
     position bigint NOT NULL
   )`,
  `INSERT INTO event_store_head (id, position) VALUES (true, 0)`,
  `CREATE TABLE event_streams (
     stream_id text COLLATE "C" PRIMARY KEY,
     revision bigint NOT NULL,
     deleted boolean NOT NULL DEFAULT false
   )`,
  `CREATE TABLE events (
     global_position bigint PRIMARY KEY,
     stream_id text COLLATE "C" NOT NULL,
     stream_revision bigint NOT NULL,
     event_id uuid NOT NULL UNIQUE,
     type text COLLATE "C" NOT NULL,
     schema_version integer NOT NULL,
     data jsonb NOT NULL,
     metadata jsonb NOT NULL,
     owner_workspace_id text COLLATE "C",
     owner_user_id text COLLATE "C",
     recorded_at timestamptz NOT NULL DEFAULT now(),
     UNIQUE (stream_id, stream_revision)
   )`,
  `CREATE INDEX events_by_owner ON events (owner_workspace_id, owner_user_id, global_position)
     WHERE owner_user_id IS NOT NULL`,
] as const;

/**
 * A deleted stream leaves no row and no name: its tombstone is the SHA-256 of its name, which is all
 * an append needs to refuse it (StreamDeletedError, a 410 over HTTP). Stream names carry the owner
 * and the ids of their messages, actions and memories; after an erasure none of them stays. (The
 * `deleted` flag of the first schema kept each name in clear: its rows become tombstones here.)
 */
export const DELETED_STREAMS_SCHEMA = [
  `CREATE TABLE deleted_streams (stream_digest bytea PRIMARY KEY)`,
  `INSERT INTO deleted_streams (stream_digest)
     SELECT sha256(convert_to(stream_id, 'UTF8')) FROM event_streams WHERE deleted
     ON CONFLICT DO NOTHING`,
  `DELETE FROM event_streams WHERE deleted`,
  `ALTER TABLE event_streams DROP COLUMN deleted`,
] as const;

/**
 * Owners closed by an erasure: no new stream of theirs may be created but under `keep_prefixes`
 * (the erasure record; the audit trail of who reads what remains), so that background work still in flight when the user was erased (a job that had
 * taken them as due, a process whose data-key cache still held their key) cannot start a history
 * after the erasure. Checked by the append function, under the head lock.
 */
export const CLOSED_OWNERS_SCHEMA = [
  `CREATE TABLE closed_owners (
     workspace_id text COLLATE "C" NOT NULL,
     user_id text COLLATE "C" NOT NULL,
     keep_prefixes text[] COLLATE "C" NOT NULL,
     PRIMARY KEY (workspace_id, user_id)
   )`,
] as const;

export const EVENTS_NOTIFY_CHANNEL = 'engram_events';
