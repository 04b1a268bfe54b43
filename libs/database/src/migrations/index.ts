import { EventStore1764400000000 } from './1764400000000-event-store';
import { ProjectionCheckpoints1764400000001 } from './1764400000001-projection-checkpoints';
import { DataKeys1764400000002 } from './1764400000002-data-keys';
import { WorkerLeases1764400000003 } from './1764400000003-worker-leases';
import { AppendBatchFunction1764400000004 } from './1764400000004-append-batch-function';
import { ParkedEvents1764400000005 } from './1764400000005-parked-events';
import { DeletedStreamDigests1764400000006 } from './1764400000006-deleted-stream-digests';
import { ClosedOwners1764400000007 } from './1764400000007-closed-owners';
import { WorkerRoles1764400000008 } from './1764400000008-worker-roles';

export const CORE_MIGRATIONS = [
  EventStore1764400000000,
  ProjectionCheckpoints1764400000001,
  DataKeys1764400000002,
  WorkerLeases1764400000003,
  AppendBatchFunction1764400000004,
  ParkedEvents1764400000005,
  DeletedStreamDigests1764400000006,
  ClosedOwners1764400000007,
  WorkerRoles1764400000008,
];
