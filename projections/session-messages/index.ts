import { readModel } from '../read-model';
import { SessionMessage } from './session-messages.entity';
import { SessionMessages1764400002000 } from './session-messages.migration';
import { sessionMessagesProjection } from './session-messages.projection';

export * from './session-messages.entity';
export * from './session-messages.projection';
export * from './session-messages.query';

export const sessionMessagesReadModel = readModel({
  projection: sessionMessagesProjection,
  entity: SessionMessage,
  migrations: [SessionMessages1764400002000],
});
