import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { startTestApp, type TestApp } from '../support/test-app';

const WS = 'w-act';

/**
 * Seed 000's activity page, to the letter: served at /personal/activity like the console, and its
 * feed written in the reader's language (the API renders titles and summaries from structured fields).
 */
describe('seed 000: /personal/activity', () => {
  let t: TestApp;
  let agent: string;
  let alice: string;
  let admin: string;
  let lastPosition = 0;

  beforeAll(async () => {
    t = await startTestApp();
    agent = await t.token({ userId: 'chat-web', workspaceId: WS, roles: ['agent'] });
    alice = await t.token({ userId: 'alice', workspaceId: WS, roles: ['user'] });
    admin = await t.token({ userId: 'root', workspaceId: WS, roles: ['admin'] });
    const base = `/v1/workspaces/${WS}/users/alice`;
    const traceId = 'trace-relance';
    await request(t.http)
      .post(`${base}/messages`)
      .auth(agent, { type: 'bearer' })
      .send({
        messageId: randomUUID(),
        sessionId: 's1',
        role: 'user',
        channel: 'telegram',
        text: 'Peux-tu relancer Delphine pour la facture Q2 ?',
        traceId,
      })
      .expect(202);
    const proposed = await request(t.http)
      .post(`${base}/actions`)
      .auth(agent, { type: 'bearer' })
      .send({
        tool: 'gmail_send',
        target: 'delphine@acme.fr',
        summary: 'Relance facture Q2',
        channel: 'telegram',
        traceId,
      })
      .expect(201);
    const confirmed = await request(t.http)
      .post(`${base}/actions/${proposed.body.actionId}/confirm`)
      .auth(agent, { type: 'bearer' })
      .send({ channel: 'web' })
      .expect(200);
    lastPosition = confirmed.body.position;
  });
  afterAll(() => t.close());

  const feed = (query: string, headers: Record<string, string> = {}) =>
    request(t.http)
      .get(`/v1/me/activity?minPosition=${lastPosition}${query}`)
      .set(headers)
      .auth(alice, { type: 'bearer' })
      .expect(200);

  describe('the page', () => {
    it('is the console at /personal/activity, with the same security headers', async () => {
      const seed = await request(t.http).get('/personal/activity').expect(200);
      const console = await request(t.http).get('/console/activity').expect(200);
      expect(seed.headers['content-type']).toMatch(/^text\/html/);
      expect(seed.text).toBe(console.text);
      for (const header of [
        'content-security-policy',
        'x-frame-options',
        'x-content-type-options',
        'referrer-policy',
        'cache-control',
      ]) {
        expect({ header, value: seed.headers[header] }).toEqual({
          header,
          value: console.headers[header],
        });
      }
      expect(seed.headers['x-powered-by']).toBeUndefined();
      await request(t.http).get('/personal/activity/').expect(200);
    });

    it('serves that one address only, and only to GET', async () => {
      await request(t.http).get('/personal/activity/other').expect(404);
      await request(t.http).get('/personal').expect(404);
      await request(t.http).post('/personal/activity').send({}).expect(404);
    });
  });

  describe('the feed, in the reader’s language', () => {
    it('?locale=fr and ?locale=en write the same group in French and in English', async () => {
      const fr = await feed('&locale=fr');
      const en = await feed('&locale=en');
      expect(fr.headers['content-language']).toBe('fr');
      expect(en.headers['content-language']).toBe('en');
      expect(fr.body.items[0]).toMatchObject({
        traceId: 'trace-relance',
        title: 'gmail_send → delphine@acme.fr « Relance facture Q2 »',
        channels: ['telegram', 'web'],
        events: [
          {
            type: 'MessageRecorded',
            channel: 'telegram',
            summary:
              "Message de l'utilisateur via Telegram : « Peux-tu relancer Delphine pour la facture Q2 ? »",
          },
          {
            type: 'ActionProposed',
            summary:
              'Action proposée via Telegram : gmail_send → delphine@acme.fr « Relance facture Q2 »',
          },
          { type: 'ActionConfirmed', channel: 'web', summary: 'Action confirmée via le chat web' },
        ],
      });
      expect(en.body.items[0]).toMatchObject({
        title: 'gmail_send → delphine@acme.fr "Relance facture Q2"',
        events: [
          {
            summary:
              'Message from the user via Telegram: "Peux-tu relancer Delphine pour la facture Q2 ?"',
          },
          {
            summary:
              'Action proposed via Telegram: gmail_send → delphine@acme.fr "Relance facture Q2"',
          },
          { summary: 'Action confirmed via the web chat' },
        ],
      });
      // The same feed otherwise: only the words change.
      const shape = (body: { items: { events: { summary?: string }[]; title?: string }[] }) =>
        body.items.map(({ title: _title, events, ...group }) => ({
          ...group,
          events: events.map(({ summary: _summary, ...event }) => event),
        }));
      expect(shape(fr.body)).toEqual(shape(en.body));
    });

    it('follows Accept-Language without ?locale, and ?locale wins over it', async () => {
      const en = await feed('', { 'Accept-Language': 'en-GB,en;q=0.9,fr;q=0.5' });
      expect(en.headers['content-language']).toBe('en');
      expect(en.body.items[0].events[2].summary).toBe('Action confirmed via the web chat');
      const fr = await feed('&locale=fr', { 'Accept-Language': 'en-GB,en;q=0.9' });
      expect(fr.body.items[0].events[2].summary).toBe('Action confirmée via le chat web');
    });

    it("defaults to the workspace policy's locale (French until an admin changes it)", async () => {
      const byDefault = await feed('', { 'Accept-Language': 'de-DE' });
      expect(byDefault.headers['content-language']).toBe('fr');
      const changed = await request(t.http)
        .put(`/v1/workspaces/${WS}/memory-policy`)
        .auth(admin, { type: 'bearer' })
        .send({ locale: 'en' })
        .expect(200);
      const english = await request(t.http)
        .get(`/v1/me/activity?minPosition=${changed.body.position}`)
        .auth(alice, { type: 'bearer' })
        .expect(200);
      expect(english.headers['content-language']).toBe('en');
      expect(english.body.items[0].title).toBe(
        'gmail_send → delphine@acme.fr "Relance facture Q2"',
      );
    });

    it('refuses a language it does not write', async () => {
      const response = await request(t.http)
        .get('/v1/me/activity?locale=de')
        .auth(alice, { type: 'bearer' })
        .expect(400);
      expect(response.body.message).toContain('locale must be one of: fr, en');
    });
  });
});
