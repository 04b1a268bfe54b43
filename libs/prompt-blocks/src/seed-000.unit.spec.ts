import { DateTime } from 'luxon';
import {
  SEED_000_NOW,
  SEED_INVITE,
  SEED_MAIL,
  SEED_POST,
  SEED_RECALLED_MAIL,
} from '../../../test/fixtures/seed-000-actions';
import type { ActionView } from './action-view';
import { recalledActionLine } from './recall-actions';
import { RECALL_ACTIONS_TOOL } from './tools/recall-actions-tool';
import { RECENT_ACTIONS_HEADINGS, recentActionLine } from './recent-actions';

/**
 * Every example line of seed 000, to the letter: the seed's line is the expected string, one test
 * per line and per kind of target it shows (an address, an id, a title); then the same in English.
 */
const options = {
  now: DateTime.fromISO(SEED_000_NOW, { zone: 'utc' }),
  timeZone: 'Europe/Paris',
} as const;

describe('seed 000, the recent-actions block', () => {
  it('has the heading of the seed', () => {
    expect(RECENT_ACTIONS_HEADINGS.fr).toBe('[Ce que tu as fait recemment]');
  });

  it.each<[string, ActionView, string, string]>([
    [
      'an address',
      SEED_MAIL,
      '- gmail_send à delphine@acme.fr : exécuté le 8 juin à 18:42 (demandé le 8 juin à 18:40 via Telegram)',
      '- gmail_send to delphine@acme.fr: executed June 8 at 18:42 (asked June 8 at 18:40 via Telegram)',
    ],
    [
      'an id, with its human label',
      SEED_INVITE,
      '- calendar_respond (invit evt_92ab…) : confirmé le 8 juin à 09:05 (demandé le 8 juin à 09:04 via le chat web)',
      '- calendar_respond (invite evt_92ab…): confirmed June 8 at 09:05 (asked June 8 at 09:04 via the web chat)',
    ],
    [
      'a title, pending',
      SEED_POST,
      '- publish_linkedin_post « Retour sur Q2 » : en attente de ta confirmation (expire dans 4 min) (demandé le 9 juin à 11:00 via email)',
      '- publish_linkedin_post "Retour sur Q2": waiting for your confirmation (expires in 4 min) (asked June 9 at 11:00 via email)',
    ],
  ])('writes the line of %s as the seed does', (_, action, fr, en) => {
    expect(recentActionLine(action, { ...options, locale: 'fr' })).toBe(fr);
    expect(recentActionLine(action, { ...options, locale: 'en' })).toBe(en);
  });
});

describe('seed 000, recall_actions', () => {
  it('writes the answer line of the seed', () => {
    expect(recalledActionLine(SEED_RECALLED_MAIL, { ...options, locale: 'fr' })).toBe(
      'gmail_send → delphine@acme.fr « Relance facture Q2 » : exécutée : proposée le 02/06/2026 14:10, exécutée le 02/06/2026 14:12',
    );
    expect(recalledActionLine(SEED_RECALLED_MAIL, { ...options, locale: 'en' })).toBe(
      'gmail_send → delphine@acme.fr "Relance facture Q2": executed: proposed 2026-06-02 14:10, executed 2026-06-02 14:12',
    );
  });

  it('labels an id target the way the block does', () => {
    const invite = { ...SEED_INVITE, summary: '' };
    expect(recalledActionLine(invite, { ...options, locale: 'fr' })).toBe(
      'calendar_respond → invit evt_92ab… : confirmée : proposée le 08/06/2026 09:04, confirmée le 08/06/2026 09:05',
    );
    expect(recalledActionLine(invite, { ...options, locale: 'en' })).toBe(
      'calendar_respond → invite evt_92ab…: confirmed: proposed 2026-06-08 09:04, confirmed 2026-06-08 09:05',
    );
  });

  it("takes the seed's call: query, status and days", () => {
    const { name, parameters } = RECALL_ACTIONS_TOOL.function;
    expect(name).toBe('recall_actions');
    const call = { query: 'delphine', status: 'executed', days: 30 };
    expect(Object.keys(call).every((key) => key in parameters.properties)).toBe(true);
    expect(parameters.properties.status.enum).toContain(call.status);
    expect(call.days).toBeLessThanOrEqual(parameters.properties.days.maximum);
    expect(parameters.properties.days.default).toBe(30);
  });
});
