import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import request from 'supertest';
import { eventually, startTestApp, type TestApp } from '../support/test-app';

/** Debian's Chromium (`apt-get install chromium`; .ci/run installs it). */
const CHROMIUM = '/usr/bin/chromium';
const SCREENSHOTS = join(__dirname, '..', '..', 'docs', 'screenshots');
/** The projections and the activity page's refresh are asynchronous: how long the page may take. */
const UI_WAIT_MS = 15_000;
const WS = 'demo';

const describeInBrowser = existsSync(CHROMIUM) ? describe : describe.skip;
if (!existsSync(CHROMIUM)) {
  console.warn(`console.e2e skipped: no Chromium at ${CHROMIUM} (apt-get install -y chromium)`);
}

/** The web console in a real browser, served by the real API (dev tokens on, as in the embedded default). */
describeInBrowser('web console in Chromium', () => {
  let t: TestApp;
  let browser: Browser;
  let baseUrl: string;
  let agent: string;
  let admin: string;

  beforeAll(async () => {
    // The expiry scheduler runs every second, so that a candidate dated long ago expires at once.
    t = await startTestApp(
      { ENGRAM_IDENTITY_CARD_DEBOUNCE_SECONDS: '0', ENGRAM_SCHEDULER_INTERVAL_SECONDS: '1' },
      { embedded: true },
    );
    await t.app.listen(0, '127.0.0.1');
    baseUrl = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    agent = await t.token({ userId: 'chat-web', workspaceId: WS, roles: ['agent'] });
    admin = await t.token({ userId: 'admin', workspaceId: WS, roles: ['user', 'admin'] });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
    mkdirSync(SCREENSHOTS, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  async function openConsole(
    options: { locale?: string; width?: number; height?: number } = {},
  ): Promise<Page> {
    const context = await browser.newContext({
      locale: options.locale ?? 'en-US',
      timezoneId: 'Europe/Paris',
      viewport: { width: options.width ?? 1200, height: options.height ?? 800 },
    });
    const page = await context.newPage();
    page.on('pageerror', (error) => console.error(`console page error: ${error.message}`));
    await page.goto(`${baseUrl}/console/`);
    return page;
  }

  async function signInWithToken(page: Page, token: string): Promise<void> {
    await page.getByLabel('Token (JWT)').fill(token);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('navigation').waitFor();
  }

  async function visit(page: Page, link: string, heading: string): Promise<void> {
    await page.getByRole('navigation').getByRole('link', { name: link }).click();
    await page.getByRole('heading', { level: 1, name: heading }).waitFor();
  }

  const shoot = (page: Page, name: string) =>
    page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });

  const say = (
    userId: string,
    text: string,
    channel = 'web',
    traceId?: string,
    extra: Readonly<{ agentId?: string; occurredAt?: string }> = {},
  ) =>
    request(t.http)
      .post(`/v1/workspaces/${WS}/users/${userId}/messages`)
      .auth(agent, { type: 'bearer' })
      .send({
        messageId: randomUUID(),
        sessionId: 's1',
        role: 'user',
        channel,
        text,
        ...(traceId ? { traceId } : {}),
        ...extra,
      })
      .expect(202);
  const setPolicy = (body: Record<string, unknown>) =>
    request(t.http)
      .put(`/v1/workspaces/${WS}/memory-policy`)
      .auth(admin, { type: 'bearer' })
      .send(body)
      .expect(200);

  /** An action proposed in the web chat and confirmed from Telegram, one trace for both. */
  async function proposeOnWebConfirmOnTelegram(userId: string, summary: string): Promise<string> {
    const traceId = `trace-${randomUUID().slice(0, 8)}`;
    await say(userId, `Peux-tu relancer Delphine pour la ${summary} ?`, 'web', traceId);
    const proposed = await request(t.http)
      .post(`/v1/workspaces/${WS}/users/${userId}/actions`)
      .auth(agent, { type: 'bearer' })
      .send({ traceId, tool: 'gmail_send', target: 'delphine@acme.fr', summary, channel: 'web' })
      .expect(201);
    await request(t.http)
      .post(`/v1/workspaces/${WS}/users/${userId}/actions/${proposed.body.actionId}/confirm`)
      .auth(agent, { type: 'bearer' })
      .send({ channel: 'telegram' })
      .expect(200);
    return traceId;
  }

  it('serves its files without a token: the page for any console path, a 404 for a missing asset', async () => {
    const page = await request(t.http).get('/console/review').expect(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    const script = /src="(\/console\/assets\/[^"]+\.js)"/.exec(page.text)![1]!;
    const asset = await request(t.http).get(script).expect(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    await request(t.http).get('/console/assets/replaced-long-ago.js').expect(404);
  });

  it('signs in with a pasted token, showing what the token says, and signs out', async () => {
    const page = await openConsole();
    await page.waitForURL('**/console/sign-in');
    const token = await t.token({ userId: 'carol', workspaceId: WS, roles: ['user'] });
    await page.getByLabel('Token (JWT)').fill('not-a-token');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('alert').getByText('This is not a token').waitFor();

    await page.getByLabel('Token (JWT)').fill(token);
    const claims = page.getByRole('region', { name: 'What the token says' });
    expect(await claims.textContent()).toContain('carol');
    await page.getByRole('button', { name: /Sign in as admin/ }).waitFor();
    await shoot(page, 'sign-in');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Activity' }).waitFor();
    expect(await page.getByRole('banner').textContent()).toContain('carol in demo');
    expect(await page.getByRole('link', { name: 'Review' }).count()).toBe(0);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL('**/console/sign-in');
    await page.context().close();
  });

  it('shows an action proposed on the web chat and confirmed on Telegram as one trace group, and new ones live', async () => {
    const traceId = await proposeOnWebConfirmOnTelegram('alice', 'facture Q2');
    const page = await openConsole();
    await page.getByRole('button', { name: /Sign in as alice/ }).click();
    const group = page.getByRole('listitem').filter({ hasText: traceId });
    await group.waitFor({ timeout: UI_WAIT_MS });
    expect(await group.textContent()).toContain('gmail_send → delphine@acme.fr "facture Q2"');
    for (const badge of ['Web', 'Telegram', 'Confirmed']) {
      await group.locator('.badge', { hasText: badge }).first().waitFor();
    }
    const toggle = group.getByRole('button', { expanded: false });
    await toggle.click();
    await group.getByRole('button', { expanded: true }).waitFor();
    const events = group.getByRole('list');
    await events.getByText('Action proposed', { exact: true }).waitFor();
    await events.getByText('Action confirmed', { exact: true }).waitFor();
    await shoot(page, 'activity');

    const later = await proposeOnWebConfirmOnTelegram('alice', 'facture Q3');
    await page
      .getByRole('status')
      .getByText(/new interaction/)
      .waitFor({ timeout: UI_WAIT_MS });
    const first = page.locator('.feed > li').first();
    expect(await first.textContent()).toContain(later);
    await page.context().close();
  });

  it('lists my memories by type with their source and identity card, and wipes them after a confirmation', async () => {
    await say('alice', 'Je préfère les réponses courtes avec des listes à puces.');
    await say('alice', 'Je suis CTO chez StartupCorp et nous construisons une plateforme SaaS.');
    const alice = await t.token({ userId: 'alice', workspaceId: WS, roles: ['user'] });
    await eventually(
      () => request(t.http).get('/v1/me/identity-card').auth(alice, { type: 'bearer' }),
      (response) => response.body.memoryCount === 2,
    );
    const page = await openConsole();
    await signInWithToken(page, alice);
    await visit(page, 'My memories', 'My memories');
    await page.getByRole('heading', { name: 'Preferences', level: 3 }).first().waitFor();
    const list = page.getByRole('region', { name: 'What I remember' });
    expect(await list.textContent()).toContain('StartupCorp');
    await list.locator('blockquote', { hasText: 'Je suis CTO chez StartupCorp' }).waitFor();
    const card = page.getByRole('region', { name: 'Identity card' });
    await card.getByRole('listitem').first().waitFor();
    expect(await card.locator('h3').count()).toBeGreaterThan(0);
    await shoot(page, 'memories');

    await page.getByRole('button', { name: 'Wipe all my memories' }).click();
    const dialog = page.getByRole('dialog', { name: 'Wipe all your memories?' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await list.textContent()).toContain('StartupCorp');

    await page.getByRole('button', { name: 'Wipe all my memories' }).click();
    await dialog.getByRole('button', { name: 'Wipe everything' }).click();
    await page.getByRole('status').getByText('All your memories were wiped.').waitFor();
    await list.getByText('No memories.').waitFor();
    const stored = await eventually(
      () => request(t.http).get('/v1/me/memories').auth(alice, { type: 'bearer' }),
      (response) => response.body.items.length === 0,
    );
    expect(stored.body.items).toEqual([]);
    await page.context().close();
  });

  it('lets an admin approve one pending memory and reject another with a reason; the approved one reaches the agent context', async () => {
    await request(t.http)
      .put(`/v1/workspaces/${WS}/memory-policy`)
      .auth(admin, { type: 'bearer' })
      .send({ reviewMode: 'admin' })
      .expect(200);
    await say('bob', 'Je suis CTO chez StartupCorp et nous construisons une plateforme SaaS.');
    await say(
      'bob',
      'Je préfère recevoir des exemples de code en Python plutôt qu’en pseudo-code.',
    );
    await eventually(
      () => request(t.http).get(`/v1/workspaces/${WS}/memories`).auth(admin, { type: 'bearer' }),
      (response) => response.body.items.length === 2,
    );
    const page = await openConsole();
    await page.getByRole('button', { name: /Sign in as admin/ }).click();
    await visit(page, 'Review', 'Memory review');
    const fact = page.locator('.review-item', { hasText: 'StartupCorp' });
    const preference = page.locator('.review-item', { hasText: 'Python' });
    await fact.waitFor();
    expect(await fact.textContent()).toContain('bob');
    await shoot(page, 'review');

    await fact.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Approve selected' }).click();
    await page.getByRole('status').getByText('1 memory approved.').waitFor();
    await fact.waitFor({ state: 'detached' });

    await preference.getByRole('button', { name: /^Reject/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Reject this memory?' });
    await dialog.getByLabel('Reason (optional)').fill('not durable');
    await dialog.getByRole('button', { name: 'Reject' }).click();
    await page.getByRole('status').getByText('1 memory rejected.').waitFor();
    await page.getByText('Nothing to review.').waitFor();

    const context = await eventually(
      () =>
        request(t.http)
          .get(`/v1/workspaces/${WS}/users/bob/context?sessionId=s1`)
          .auth(agent, { type: 'bearer' }),
      (response) => response.body.memories?.byType?.fact?.length === 1,
    );
    const remembered = Object.values(context.body.memories.byType).flat() as { content: string }[];
    expect(remembered.map((memory) => memory.content)).toEqual([
      expect.stringContaining('StartupCorp'),
    ]);
    expect(context.body.systemPrompt).toContain('StartupCorp');
    const bob = await t.token({ userId: 'bob', workspaceId: WS, roles: ['user'] });
    const rejected = await eventually(
      () => request(t.http).get('/v1/me/memories?status=rejected').auth(bob, { type: 'bearer' }),
      (response) => response.body.items.length === 1,
    );
    expect(rejected.body.items[0]).toMatchObject({ status: 'rejected', reason: 'not durable' });
    await page.context().close();
  });

  it('shows an admin the candidates rejected because nobody reviewed them in time, as rejected (expired)', async () => {
    await setPolicy({ reviewMode: 'admin', pendingTtlDays: 7 });
    const tenDaysAgo = new Date(Date.now() - 10 * 24 * 3600 * 1000).toISOString();
    await say('carl', 'Je préfère les réunions le matin.', 'web', undefined, {
      occurredAt: tenDaysAgo,
    });
    await eventually(
      () =>
        request(t.http)
          .get(`/v1/workspaces/${WS}/memories?status=rejected`)
          .auth(admin, { type: 'bearer' }),
      (response) => response.body.items.length === 1,
    );
    const page = await openConsole();
    await page.getByRole('button', { name: /Sign in as admin/ }).click();
    await visit(page, 'Review', 'Memory review');
    await page.getByRole('button', { name: 'Rejected (expired)' }).click();
    const expired = page.locator('.review-item', { hasText: 'réunions le matin' });
    await expired.waitFor();
    expect(await expired.textContent()).toContain('Rejected (expired)');
    expect(await expired.getByRole('button').count()).toBe(0);
    await page.context().close();
  });

  it("lists the workspace's agents for an admin, each with Enable Memory, and switches one off", async () => {
    await say('alice', 'Bonjour depuis Telegram.', 'telegram', undefined, {
      agentId: 'telegram-bot',
    });
    await say('bob', 'Bonjour depuis le web.', 'web', undefined, { agentId: 'chat-web' });
    await eventually(
      () => request(t.http).get(`/v1/workspaces/${WS}/agents`).auth(admin, { type: 'bearer' }),
      (response) => response.body.items.length === 2,
    );
    const page = await openConsole();
    await page.getByRole('button', { name: /Sign in as admin/ }).click();
    await visit(page, 'Agents', 'Agents');
    const telegram = page.locator('.agent', { hasText: 'telegram-bot' });
    const web = page.locator('.agent', { hasText: 'chat-web' });
    await telegram.waitFor();
    expect(await telegram.getByRole('switch', { name: 'Enable Memory' }).isChecked()).toBe(true);
    expect(await web.textContent()).toContain('1 message');

    await telegram.getByRole('switch', { name: 'Enable Memory' }).click();
    await page.getByRole('status').getByText('Memory is off for telegram-bot.').waitFor();
    expect(await telegram.getByRole('switch').isChecked()).toBe(false);
    expect(await web.getByRole('switch').isChecked()).toBe(true);
    await shoot(page, 'agents');
    const stored = await eventually(
      () => request(t.http).get(`/v1/workspaces/${WS}/agents`).auth(admin, { type: 'bearer' }),
      (response) =>
        response.body.items.some(
          (item: { agentId: string; memoryEnabled: boolean }) =>
            item.agentId === 'telegram-bot' && !item.memoryEnabled,
        ),
    );
    expect(stored.body.items).toEqual([
      expect.objectContaining({ agentId: 'chat-web', memoryEnabled: true }),
      expect.objectContaining({
        agentId: 'telegram-bot',
        memoryEnabled: false,
        updatedBy: 'admin',
      }),
    ]);
    await page.context().close();
  });

  it('edits every field of the memory policy, showing the API’s validation message next to its field', async () => {
    const page = await openConsole();
    await page.getByRole('button', { name: /Sign in as admin/ }).click();
    await visit(page, 'Policy', 'Memory policy');
    const form = page.locator('form.policy-form');
    for (const label of [
      'Review mode',
      'Approve at once from confidence',
      'Days a candidate waits',
      'Live window (messages)',
      'Summary batch (messages)',
      'Memories per user',
      'Time zone',
      'Prompt language',
      'LLM calls per user per day',
    ]) {
      await form.getByLabel(label, { exact: true }).waitFor();
    }
    expect(await form.textContent()).toContain('a memory an admin approved is never evicted');

    await form.getByLabel('Days a candidate waits', { exact: true }).fill('0');
    await form.getByLabel('Time zone', { exact: true }).fill('Mars/Olympus');
    await page.getByRole('button', { name: 'Save the policy' }).click();
    const ttlError = page.locator('#policy-pendingTtlDays-error');
    await ttlError.getByText('pendingTtlDays must be an integer from 1 to 365').waitFor();
    await page
      .locator('#policy-timeZone-error')
      .getByText(/timeZone must be an IANA/)
      .waitFor();
    expect(
      await form.getByLabel('Days a candidate waits', { exact: true }).getAttribute('aria-invalid'),
    ).toBe('true');
    await page.getByRole('alert').getByText('The policy was not saved').waitFor();
    await shoot(page, 'policy');

    await form.getByLabel('Days a candidate waits', { exact: true }).fill('5');
    await form.getByLabel('Time zone', { exact: true }).fill('Europe/Paris');
    await form.getByLabel('Approve at once from confidence', { exact: true }).fill('0.95');
    await form.getByLabel('Review mode', { exact: true }).selectOption('user');
    await form.getByLabel('LLM calls per user per day', { exact: true }).fill('100');
    await page.getByRole('button', { name: 'Save the policy' }).click();
    await page.getByRole('status').getByText('Policy saved.').waitFor();
    expect(await ttlError.count()).toBe(0);
    // The console read its own write (minPosition); this read without it waits for the projection.
    const saved = await eventually(
      () =>
        request(t.http)
          .get(`/v1/workspaces/${WS}/memory-policy`)
          .auth(admin, { type: 'bearer' })
          .expect(200),
      (response) => (response.body as { reviewMode?: string }).reviewMode === 'user',
    );
    expect(saved.body).toMatchObject({
      reviewMode: 'user',
      pendingTtlDays: 5,
      autoApproveAbove: 0.95,
      timeZone: 'Europe/Paris',
      llmCallsPerUserPerDay: 100,
    });
    await page.context().close();
  });

  it('in review mode user, lets a user approve one pending memory and reject another on their memories page', async () => {
    await setPolicy({ reviewMode: 'user', autoApproveAbove: null, llmCallsPerUserPerDay: null });
    await say('dora', 'Je suis CTO chez StartupCorp et nous construisons une plateforme SaaS.');
    await say(
      'dora',
      'Je préfère recevoir des exemples de code en Python plutôt qu’en pseudo-code.',
    );
    const dora = await t.token({ userId: 'dora', workspaceId: WS, roles: ['user'] });
    const mine = (status: string) =>
      request(t.http).get(`/v1/me/memories?status=${status}`).auth(dora, { type: 'bearer' });
    await eventually(
      () => mine('pending'),
      (response) => response.body.items.length === 2,
    );
    const page = await openConsole();
    await signInWithToken(page, dora);
    await visit(page, 'My memories', 'My memories');
    const list = page.getByRole('region', { name: 'What I remember' });
    await list.getByText('approve or reject each pending memory').waitFor();
    await list.getByRole('button', { name: /^Approve the memory .*StartupCorp/ }).waitFor();
    await shoot(page, 'user-review');

    await list.getByRole('button', { name: /^Approve the memory .*StartupCorp/ }).click();
    await page.getByRole('status').getByText('Memory approved.').waitFor();
    await list.getByRole('button', { name: /^Reject the memory .*Python/ }).click();
    await page.getByRole('status').getByText('Memory rejected.').waitFor();
    expect(await list.getByRole('button', { name: /^(Approve|Reject) the memory/ }).count()).toBe(
      0,
    );

    const approved = await eventually(
      () => mine('approved'),
      (response) => response.body.items.length === 1,
    );
    expect(approved.body.items[0]).toMatchObject({
      content: expect.stringContaining('StartupCorp'),
      decidedBy: { kind: 'person', userId: 'dora', role: 'user' },
    });
    const rejected = await eventually(
      () => mine('rejected'),
      (response) => response.body.items.length === 1,
    );
    expect(rejected.body.items[0].content).toContain('Python');
    await page.context().close();
  });

  it('tells a user on their memories page that the daily LLM budget holds their analysis back until tomorrow', async () => {
    await setPolicy({ reviewMode: 'auto', autoApproveAbove: null, llmCallsPerUserPerDay: 1 });
    await say('erin', 'Je suis infirmière à Nantes.');
    await say('erin', 'Je travaille de nuit.');
    const erin = await t.token({ userId: 'erin', workspaceId: WS, roles: ['user'] });
    await eventually(
      () => request(t.http).get('/v1/me/llm-usage').auth(erin, { type: 'bearer' }),
      (response) => response.body.deferred?.length === 1,
    );
    const page = await openConsole({ locale: 'fr-FR' });
    await page.getByLabel('Jeton (JWT)').fill(erin);
    await page.getByRole('button', { name: 'Se connecter', exact: true }).click();
    await visit(page, 'Mes mémoires', 'Mes mémoires');
    await page.getByText('Analyse suspendue jusqu’à demain (quota atteint)').waitFor();
    await page.context().close();
    const english = await openConsole();
    await signInWithToken(english, erin);
    await visit(english, 'My memories', 'My memories');
    await english.getByText('Analysis paused until tomorrow (quota reached)').waitFor();
    await english.context().close();
    // Users whose analysis is not held back see no notice.
    const bob = await t.token({ userId: 'bob', workspaceId: WS, roles: ['user'] });
    const other = await openConsole();
    await signInWithToken(other, bob);
    await visit(other, 'My memories', 'My memories');
    await other.getByRole('heading', { level: 2, name: 'What I remember' }).waitFor();
    await other.waitForLoadState('networkidle');
    expect(await other.getByText('Analysis paused until tomorrow').count()).toBe(0);
    await other.context().close();
    await setPolicy({ llmCallsPerUserPerDay: null });
  });

  it("serves the activity page at seed 000's /personal/activity, written in the console's language", async () => {
    const traceId = await proposeOnWebConfirmOnTelegram('fanny', 'facture Q4');
    const fanny = await t.token({ userId: 'fanny', workspaceId: WS, roles: ['user'] });
    const page = await openConsole({ locale: 'fr-FR' });
    await page.getByLabel('Jeton (JWT)').fill(fanny);
    await page.getByRole('button', { name: 'Se connecter', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Activité' }).waitFor();
    await page.goto(`${baseUrl}/personal/activity`);
    await page.getByRole('heading', { level: 1, name: 'Activité' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/personal/activity');

    const group = page.getByRole('listitem').filter({ hasText: traceId });
    const title = group.locator('.group-title');
    await group.waitFor({ timeout: UI_WAIT_MS });
    expect(await title.textContent()).toBe('gmail_send → delphine@acme.fr « facture Q4 »');
    await group.getByRole('button', { expanded: false }).click();
    const events = group.getByRole('list');
    for (const line of [
      "Message de l'utilisateur via le chat web : « Peux-tu relancer Delphine pour la facture Q4 ? »",
      'Action proposée via le chat web : gmail_send → delphine@acme.fr « facture Q4 »',
      'Action confirmée via Telegram',
    ]) {
      await events.getByText(line, { exact: true }).waitFor();
    }

    // Another language: the feed starts over, written in it by the API.
    await page.getByLabel('Langue').selectOption('en');
    await title.getByText('gmail_send → delphine@acme.fr "facture Q4"').waitFor();
    await page.getByRole('heading', { level: 1, name: 'Activity' }).waitFor();
    await page.context().close();
  });

  it('reads well on a phone, in French', async () => {
    const page = await openConsole({ locale: 'fr-FR', width: 390, height: 844 });
    await page.getByRole('button', { name: /Se connecter comme alice/ }).click();
    await page.getByRole('heading', { level: 1, name: 'Activité' }).waitFor();
    await page.locator('.feed > li').first().waitFor({ timeout: UI_WAIT_MS });
    // The root tsconfig has no DOM types: the page evaluates these as expressions.
    expect(await page.evaluate('document.documentElement.lang')).toBe('fr');
    const overflow = await page.evaluate(
      'document.documentElement.scrollWidth - document.documentElement.clientWidth',
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await shoot(page, 'activity-phone');
    await page.context().close();
  });
});
