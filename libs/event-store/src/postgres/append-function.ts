/**
 * The whole of a group commit as one server-side function, so one round trip appends a batch and the
 * head lock is held only while PostgreSQL runs it, never while a Node process is busy elsewhere.
 * Each request keeps its own checks (a retry of stored event ids answers their first result, then a
 * deleted stream, a new stream of a closed (erased) owner or a wrong expected revision refuses that
 * request alone). Inside a volatile function every statement takes a fresh snapshot, so the reads
 * after the lock see every earlier commit.
 */
export const APPEND_BATCH_FUNCTION = `
CREATE OR REPLACE FUNCTION engram_append_batch(
  p_streams text[], p_expected text[], p_counts int[], p_owner_workspaces text[], p_owner_users text[],
  p_event_ids uuid[], p_types text[], p_versions int[], p_data jsonb[], p_metadata jsonb[],
  p_channel text)
RETURNS TABLE (o_outcome text, o_revision bigint, o_position bigint, o_clash uuid)
LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
  v_head bigint;
  v_start bigint;
  v_offset int := 0;
  v_count int;
  v_stream text;
  v_expected text;
  v_ids uuid[];
  v_found int;
  v_consistent boolean;
  v_last_revision bigint;
  v_last_position bigint;
  v_first_found uuid;
  v_revision bigint;
  v_deleted boolean;
  v_exists boolean;
  v_outcomes text[];
  v_revisions bigint[];
  v_written int;
BEGIN
  SELECT position INTO v_head FROM event_store_head FOR UPDATE;
  v_start := v_head;

  -- The usual batch (distinct streams, no retried event id) is checked and written set-based.
  IF cardinality(p_streams) = (SELECT count(DISTINCT stream) FROM unnest(p_streams) AS stream)
     AND NOT EXISTS (SELECT 1 FROM events WHERE event_id = ANY(p_event_ids)) THEN
    SELECT array_agg(CASE
             WHEN d.stream_digest IS NOT NULL THEN 'stream_deleted'
             WHEN s.stream_id IS NULL AND c.user_id IS NOT NULL
                  AND NOT EXISTS (SELECT 1 FROM unnest(c.keep_prefixes) AS k(prefix)
                                   WHERE starts_with(r.stream, k.prefix)) THEN 'stream_deleted'
             WHEN r.expected = 'any'
               OR (r.expected = 'no_stream' AND s.stream_id IS NULL)
               OR (r.expected = 'stream_exists' AND s.stream_id IS NOT NULL)
               OR s.revision = CASE WHEN r.expected NOT IN ('any', 'no_stream', 'stream_exists')
                                    THEN r.expected::bigint END THEN 'ok'
             ELSE 'wrong_expected_version' END ORDER BY r.i),
           array_agg(s.revision ORDER BY r.i)
      INTO v_outcomes, v_revisions
      FROM unnest(p_streams, p_expected, p_owner_workspaces, p_owner_users)
             WITH ORDINALITY AS r(stream, expected, owner_workspace, owner_user, i)
      LEFT JOIN event_streams s ON s.stream_id = r.stream
      LEFT JOIN deleted_streams d ON d.stream_digest = sha256(convert_to(r.stream, 'UTF8'))
      LEFT JOIN closed_owners c
        ON c.workspace_id = r.owner_workspace AND c.user_id = r.owner_user;

    SELECT coalesce(sum(r.n), 0) INTO v_written
      FROM unnest(p_counts, v_outcomes) AS r(n, outcome) WHERE r.outcome = 'ok';
    IF v_written > 0 THEN
      UPDATE event_store_head SET position = v_head + v_written;
      PERFORM pg_notify(p_channel, (v_head + v_written)::text);
    END IF;
    RETURN QUERY
      WITH q AS (
        SELECT r.i, r.stream, v_outcomes[r.i] AS outcome,
               CASE WHEN v_outcomes[r.i] = 'ok' THEN r.n ELSE 0 END AS written,
               coalesce(v_revisions[r.i], -1) AS base,
               coalesce(sum(r.n) OVER preceding, 0)::int AS first_event,
               v_head + coalesce(sum(CASE WHEN v_outcomes[r.i] = 'ok' THEN r.n ELSE 0 END)
                                   OVER preceding, 0) AS first_position
          FROM unnest(p_streams, p_counts) WITH ORDINALITY AS r(stream, n, i)
        WINDOW preceding AS (ORDER BY r.i ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING)
      ), written_events AS (
        INSERT INTO events (global_position, stream_id, stream_revision, event_id, type,
                            schema_version, data, metadata, owner_workspace_id, owner_user_id)
        SELECT q.first_position + k, q.stream, q.base + k, p_event_ids[q.first_event + k],
               p_types[q.first_event + k], p_versions[q.first_event + k],
               p_data[q.first_event + k], p_metadata[q.first_event + k],
               p_owner_workspaces[q.i], p_owner_users[q.i]
          FROM q CROSS JOIN LATERAL generate_series(1, q.written) AS k
        RETURNING 1
      ), written_streams AS (
        INSERT INTO event_streams (stream_id, revision)
        SELECT q.stream, q.base + q.written FROM q WHERE q.written > 0
            ON CONFLICT (stream_id) DO UPDATE SET revision = EXCLUDED.revision
        RETURNING 1
      )
      SELECT q.outcome,
             CASE WHEN q.outcome = 'ok' THEN q.base + q.written ELSE v_revisions[q.i] END,
             CASE WHEN q.outcome = 'ok' THEN q.first_position + q.written END,
             NULL::uuid
        FROM q ORDER BY q.i;
    RETURN;
  END IF;

  -- Otherwise each request in turn: a retry answers the first result, a clash is refused.
  FOR i IN 1 .. coalesce(array_length(p_streams, 1), 0) LOOP
    v_stream := p_streams[i];
    v_expected := p_expected[i];
    v_count := p_counts[i];
    v_ids := p_event_ids[v_offset + 1 : v_offset + v_count];
    o_clash := NULL;

    SELECT count(*),
           coalesce(bool_and(e.stream_id = v_stream), true)
             AND count(DISTINCT e.stream_revision - u.ord) <= 1,
           max(e.stream_revision) FILTER (WHERE u.ord = v_count),
           max(e.global_position) FILTER (WHERE u.ord = v_count),
           (array_agg(u.id ORDER BY u.ord))[1]
      INTO v_found, v_consistent, v_last_revision, v_last_position, v_first_found
      FROM unnest(v_ids) WITH ORDINALITY AS u(id, ord)
      CROSS JOIN LATERAL (
        SELECT stream_id, stream_revision, global_position FROM events WHERE event_id = u.id
      ) e;

    IF v_found > 0 THEN
      IF v_found = v_count AND v_consistent THEN
        o_outcome := 'already_stored'; o_revision := v_last_revision; o_position := v_last_position;
      ELSE
        o_outcome := 'duplicate_event_id'; o_revision := NULL; o_position := NULL;
        o_clash := v_first_found;
      END IF;
      v_offset := v_offset + v_count;
      RETURN NEXT;
      CONTINUE;
    END IF;

    SELECT s.revision INTO v_revision FROM event_streams s WHERE s.stream_id = v_stream;
    v_exists := FOUND;
    v_deleted := EXISTS (SELECT 1 FROM deleted_streams
                          WHERE stream_digest = sha256(convert_to(v_stream, 'UTF8')))
                 OR (NOT v_exists AND EXISTS (
                       SELECT 1 FROM closed_owners c
                        WHERE c.workspace_id = p_owner_workspaces[i] AND c.user_id = p_owner_users[i]
                          AND NOT EXISTS (SELECT 1 FROM unnest(c.keep_prefixes) AS k(prefix)
                                           WHERE starts_with(v_stream, k.prefix))));
    o_revision := CASE WHEN v_exists THEN v_revision END;
    o_position := NULL;
    IF v_deleted THEN
      o_outcome := 'stream_deleted';
    ELSIF NOT (v_expected = 'any'
               OR (v_expected = 'no_stream' AND NOT v_exists)
               OR (v_expected = 'stream_exists' AND v_exists)
               OR coalesce(v_exists AND v_revision = CASE
                    WHEN v_expected NOT IN ('any', 'no_stream', 'stream_exists')
                    THEN v_expected::bigint END, false)) THEN
      o_outcome := 'wrong_expected_version';
    ELSIF v_count = 0 THEN
      o_outcome := 'ok'; o_revision := coalesce(o_revision, -1); o_position := v_head;
    ELSE
      v_revision := coalesce(o_revision, -1);
      INSERT INTO events (global_position, stream_id, stream_revision, event_id, type, schema_version,
                          data, metadata, owner_workspace_id, owner_user_id)
      SELECT v_head + u.ord, v_stream, v_revision + u.ord, u.id, p_types[v_offset + u.ord],
             p_versions[v_offset + u.ord], p_data[v_offset + u.ord], p_metadata[v_offset + u.ord],
             p_owner_workspaces[i], p_owner_users[i]
        FROM unnest(v_ids) WITH ORDINALITY AS u(id, ord);
      v_head := v_head + v_count;
      INSERT INTO event_streams (stream_id, revision) VALUES (v_stream, v_revision + v_count)
        ON CONFLICT (stream_id) DO UPDATE SET revision = EXCLUDED.revision;
      o_outcome := 'ok'; o_revision := v_revision + v_count; o_position := v_head;
    END IF;
    v_offset := v_offset + v_count;
    RETURN NEXT;
  END LOOP;
  IF v_head > v_start THEN
    UPDATE event_store_head SET position = v_head;
    PERFORM pg_notify(p_channel, v_head::text);
  END IF;
END
$fn$`;
