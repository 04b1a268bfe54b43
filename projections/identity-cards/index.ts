import { readModel } from '../read-model';
import { IdentityCard } from './identity-cards.entity';
import { IdentityCards1764400002004 } from './identity-cards.migration';
import { identityCardsProjection } from './identity-cards.projection';

export * from './identity-cards.entity';
export * from './identity-cards.projection';
export * from './identity-cards.query';

export const identityCardsReadModel = readModel({
  projection: identityCardsProjection,
  entity: IdentityCard,
  migrations: [IdentityCards1764400002004],
});
