import { readModel } from '../read-model';
import { ActivityEvent } from './activity.entity';
import { ActivityEvents1764400004101 } from './activity.migration';
import { ActivityDetails1764400016200 } from './activity-details.migration';
import { activityProjection } from './activity.projection';

export * from './activity.entity';
export * from './activity.projection';
export * from './activity.query';

export const activityReadModel = readModel({
  projection: activityProjection,
  entity: ActivityEvent,
  migrations: [ActivityEvents1764400004101, ActivityDetails1764400016200],
});
