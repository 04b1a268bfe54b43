import { readModel } from '../read-model';
import { ActionRecord } from './actions.entity';
import { Actions1764400004100 } from './actions.migration';
import { actionsProjection } from './actions.projection';

export * from './actions.entity';
export * from './actions.projection';
export * from './actions.query';

export const actionsReadModel = readModel({
  projection: actionsProjection,
  entity: ActionRecord,
  migrations: [Actions1764400004100],
});
