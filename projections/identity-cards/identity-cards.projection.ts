import { assertNever } from '@engram/domain';
import type { DecodedEvent } from '@engram/event-store';
import type { HandledBy, Projection } from '../runner/projection';
import { IdentityCard } from './identity-cards.entity';

const HANDLES = [
  'IdentityCardRegenerated',
  'MemoryApproved',
  'MemoryDeleted',
  'MemoryEvicted',
  'MemorySuperseded',
  'MemoriesWiped',
] as const;

function ownerOf(event: DecodedEvent): Pick<IdentityCard, 'workspaceId' | 'userId'> {
  return { workspaceId: event.metadata.workspaceId, userId: event.metadata.userId };
}

function emptyCard(owner: Pick<IdentityCard, 'workspaceId' | 'userId'>): IdentityCard {
  return {
    ...owner,
    markdown: '',
    memoryCount: 0,
    basedOnPosition: '-1',
    model: null,
    generatedAt: null,
    dirtyPosition: null,
    dirtyAt: null,
    wipedPosition: null,
  };
}

/**
 * The identity card of each user, and whether it must be regenerated: the memory events that change
 * the set of approved memories mark it dirty; a wipe also empties it at once.
 */
export const identityCardsProjection: Projection<IdentityCard, HandledBy<typeof HANDLES>> = {
  name: 'identity_cards',
  entity: IdentityCard,
  key: ['workspaceId', 'userId'],
  handles: HANDLES,
  keysOf: (event) => [ownerOf(event)],
  apply: (event, rows) => {
    const owner = ownerOf(event);
    const current = rows.get(owner) ?? emptyCard(owner);
    const at = new Date(event.metadata.occurredAt);
    const position = event.globalPosition.toString();
    const { event: payload } = event;
    switch (payload.type) {
      case 'IdentityCardRegenerated': {
        const { data } = payload;
        if (
          current.wipedPosition !== null &&
          BigInt(data.basedOnPosition) < BigInt(current.wipedPosition)
        ) {
          return [];
        }
        const row: IdentityCard = {
          ...current,
          markdown: data.markdown,
          memoryCount: data.memoryCount,
          basedOnPosition: data.basedOnPosition,
          model: data.model,
          generatedAt: at,
        };
        return [{ kind: 'upsert', row }];
      }
      case 'MemoryApproved':
      case 'MemoryDeleted':
      case 'MemoryEvicted':
      case 'MemorySuperseded': // leaves the approved memories too: the card must stop saying it
        return [{ kind: 'upsert', row: { ...current, dirtyPosition: position, dirtyAt: at } }];
      case 'MemoriesWiped': {
        const row: IdentityCard = {
          ...current,
          markdown: '',
          memoryCount: 0,
          dirtyPosition: position,
          dirtyAt: at,
          wipedPosition: position,
        };
        return [{ kind: 'upsert', row }];
      }
      default:
        return assertNever(payload);
    }
  },
};
