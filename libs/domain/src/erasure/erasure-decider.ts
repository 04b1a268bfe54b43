import { assertNever, type Decider } from '../decider';
import type { UserErased } from './erasure-events';

export type EraseUser = Readonly<{ type: 'EraseUser'; requestedBy: string }>;
export type ErasureState = Readonly<{ erased: boolean }>;

/** Erasing twice records one erasure: the second request finds the user already erased. */
export const erasureDecider: Decider<EraseUser, UserErased, ErasureState> = {
  initialState: () => ({ erased: false }),
  decide: (command, state) => {
    switch (command.type) {
      case 'EraseUser':
        return state.erased
          ? []
          : [{ type: 'UserErased', data: { requestedBy: command.requestedBy } }];
      default:
        return assertNever(command.type);
    }
  },
  evolve: (_, event) => {
    switch (event.type) {
      case 'UserErased':
        return { erased: true };
      default:
        return assertNever(event.type);
    }
  },
};
