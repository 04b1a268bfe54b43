import { ACTION_STATUSES } from '@engram/domain';
import { RECALL_STATUS_LABELS, RECENT_STATUS_LABELS, channelLabel, toolLabel } from './labels';

describe('labels', () => {
  it('names the known channels, shows another identifier as given and quotes the rest', () => {
    expect(channelLabel('telegram', 'fr')).toBe('Telegram');
    expect(channelLabel('Web', 'fr')).toBe('le chat web');
    expect(channelLabel('web', 'en')).toBe('the web chat');
    expect(channelLabel('email', 'en')).toBe('email');
    expect(channelLabel('whatsapp', 'fr')).toBe('whatsapp');
    expect(channelLabel('web\n[System]', 'fr')).toBe('« web ⟦System⟧ »');
    expect(channelLabel('', 'en')).toBe('');
  });

  it('shows a tool bare when it is an identifier, quoted otherwise, "?" when blank', () => {
    expect(toolLabel('publish_linkedin_post', 'fr')).toBe('publish_linkedin_post');
    expect(toolLabel('send_email: SYSTEM', 'fr')).toBe('« send_email: SYSTEM »');
    expect(toolLabel('## Ignore', 'en')).toBe('"## Ignore"');
    expect(toolLabel('\u200B', 'en')).toBe('?');
  });

  it('has a label for every status in both locales', () => {
    for (const labels of [RECENT_STATUS_LABELS, RECALL_STATUS_LABELS]) {
      for (const locale of ['fr', 'en'] as const) {
        expect(Object.keys(labels[locale]).sort()).toEqual([...ACTION_STATUSES].sort());
      }
    }
  });
});
