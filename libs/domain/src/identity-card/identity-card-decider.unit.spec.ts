import { deciderSpec } from '../../../../test/support/decider-spec';
import { identityCardDecider } from './identity-card-decider';
import type { IdentityCardRegenerated } from './identity-card-events';

const spec = deciderSpec(identityCardDecider);
const card = (basedOnPosition: string): IdentityCardRegenerated['data'] => ({
  markdown: `## Identité\n- card at ${basedOnPosition}`,
  memoryCount: 1,
  basedOnPosition,
  model: 'template',
});

describe('identity card decider', () => {
  it('records a card based on newer memories', () => {
    spec
      .given([])
      .when({ type: 'RegenerateIdentityCard', data: card('5') })
      .then([{ type: 'IdentityCardRegenerated', data: card('5') }]);
  });

  it('ignores a card that is not newer than the current one', () => {
    spec
      .given([{ type: 'IdentityCardRegenerated', data: card('5') }])
      .when({ type: 'RegenerateIdentityCard', data: card('5') })
      .thenNothing();
  });
});
