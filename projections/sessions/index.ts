import { readModel } from '../read-model';
import { Session } from './sessions.entity';
import { Sessions1764400002001 } from './sessions.migration';
import { sessionsProjection } from './sessions.projection';

export * from './sessions.entity';
export * from './sessions.projection';
export * from './sessions.query';

export const sessionsReadModel = readModel({
  projection: sessionsProjection,
  entity: Session,
  migrations: [Sessions1764400002001],
});
