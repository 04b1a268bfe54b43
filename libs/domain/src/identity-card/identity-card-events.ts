import type { Event } from '../event';
import type { EventDefinition } from '../event-definition';

export type IdentityCardRegenerated = Event<
  'IdentityCardRegenerated',
  {
    markdown: string;
    memoryCount: number;
    /** Global position of the last memory event the card reflects (decimal string). */
    basedOnPosition: string;
    model: string;
  }
>;

export type IdentityCardEvent = IdentityCardRegenerated;

export const IDENTITY_CARD_EVENT_DEFINITIONS: readonly EventDefinition[] = [
  { type: 'IdentityCardRegenerated', version: 1, personalFields: ['markdown'] },
];
