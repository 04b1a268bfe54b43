import { ACTION_STATUSES } from '@engram/domain';
import { RECALL_STATUS_LABELS, RECENT_STATUS_LABELS, channelLabel } from './labels';

describe('labels', () => {
  it('names the known channels and shows any other as given', () => {
    expect(channelLabel('telegram', 'fr')).toBe('Telegram');
    expect(channelLabel('Web', 'fr')).toBe('le chat web');
    expect(channelLabel('web', 'en')).toBe('the web chat');
    expect(channelLabel('email', 'en')).toBe('email');
    expect(channelLabel('whatsapp', 'fr')).toBe('whatsapp');
  });

  it('has a label for every status in both locales', () => {
    for (const labels of [RECENT_STATUS_LABELS, RECALL_STATUS_LABELS]) {
      for (const locale of ['fr', 'en'] as const) {
        expect(Object.keys(labels[locale]).sort()).toEqual([...ACTION_STATUSES].sort());
      }
    }
  });
});
