import { assertNever, type Decider } from '../decider';
import type { IdentityCardEvent, IdentityCardRegenerated } from './identity-card-events';

export type RegenerateIdentityCard = Readonly<{
  type: 'RegenerateIdentityCard';
  data: IdentityCardRegenerated['data'];
}>;
export type IdentityCardCommand = RegenerateIdentityCard;
export type IdentityCardState = Readonly<{ basedOnPosition: bigint }>;

/** A card based on memories no newer than the current one's is a retry: nothing is recorded. */
export const identityCardDecider: Decider<
  IdentityCardCommand,
  IdentityCardEvent,
  IdentityCardState
> = {
  initialState: () => ({ basedOnPosition: -1n }),
  decide: (command, state) => {
    switch (command.type) {
      case 'RegenerateIdentityCard':
        if (BigInt(command.data.basedOnPosition) <= state.basedOnPosition) return [];
        return [{ type: 'IdentityCardRegenerated', data: command.data }];
      default:
        return assertNever(command.type);
    }
  },
  evolve: (state, event) => {
    switch (event.type) {
      case 'IdentityCardRegenerated':
        return { basedOnPosition: BigInt(event.data.basedOnPosition) };
      default:
        return assertNever(event.type);
    }
  },
};
