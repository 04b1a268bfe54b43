import { deciderSpec } from '../../../../test/support/decider-spec';
import { webhookDecider, type RegisterWebhook } from './webhook-decider';
import type { SealedSecret, WebhookEvent } from './webhook-events';
import { webhookEventsProblem, webhookUrlProblem } from './webhook-subscriptions';

const spec = deciderSpec(webhookDecider);
const SEALED: SealedSecret = { v: 1, iv: 'aXY=', tag: 'dGFn', ct: 'Y3Q=' };
const ID = '6f1c9a52-2b8e-4d43-9f0c-3e2d1b7a8c90';

const register = (fields: Partial<RegisterWebhook> = {}): RegisterWebhook => ({
  type: 'RegisterWebhook',
  webhookId: ID,
  url: 'https://hooks.example.com/engram',
  events: ['action.expired', 'memory.approved'],
  sealedSecret: SEALED,
  registeredBy: 'root',
  ...fields,
});
const registered = (fields: Partial<RegisterWebhook> = {}): WebhookEvent => {
  const { type: _type, ...data } = register(fields);
  return { type: 'WebhookRegistered', data: { ...data, events: [...data.events] } };
};
const removed: WebhookEvent = {
  type: 'WebhookRemoved',
  data: { webhookId: ID, removedBy: 'root' },
};

describe('webhook decider', () => {
  it('registers an endpoint: its URL, events, sealed secret and who registered it', () => {
    spec.given([]).when(register()).then([registered()]);
    spec
      .given([])
      .when(register({ description: 'billing' }))
      .then([registered({ description: 'billing' })]);
  });

  it('refuses a second registration of the same id (a conflict)', () => {
    spec
      .given([registered()])
      .when(register())
      .thenThrows(/already exists/);
    spec
      .given([registered(), removed])
      .when(register())
      .thenThrows(/already exists/);
  });

  it('refuses a URL that is not https (http only to loopback) and unknown or repeated events', () => {
    spec
      .given([])
      .when(register({ url: 'http://hooks.example.com/x' }))
      .thenThrows(/https/);
    spec
      .given([])
      .when(register({ events: ['memory.deleted' as never] }))
      .thenThrows(/unknown: memory.deleted/);
    spec
      .given([])
      .when(register({ events: [] }))
      .thenThrows(/at least one/);
    spec
      .given([])
      .when(register({ events: ['user.erased', 'user.erased'] }))
      .thenThrows(/once/);
  });

  it('removes a registered endpoint once; removing an unknown or removed one is not found', () => {
    spec.given([registered()]).when({ type: 'RemoveWebhook', removedBy: 'root' }).then([removed]);
    spec
      .given([])
      .when({ type: 'RemoveWebhook', removedBy: 'root' })
      .thenThrows(/not found/);
    spec
      .given([registered(), removed])
      .when({ type: 'RemoveWebhook', removedBy: 'root' })
      .thenThrows(/not found/);
  });
});

describe('webhook URL and events rules', () => {
  it.each([
    'https://hooks.example.com/engram',
    'https://10.0.0.1:8443/x?y=1',
    'http://127.0.0.1:4000/hook',
    'http://localhost/hook',
    'http://[::1]:9000/hook',
  ])('accepts %s', (url) => expect(webhookUrlProblem(url)).toBeUndefined());

  it.each([
    ['http://hooks.example.com/x', /https/],
    ['ftp://127.0.0.1/x', /https/],
    ['hooks.example.com', /absolute URL/],
    ['https://user:pw@hooks.example.com/', /credentials/],
    [`https://example.com/${'a'.repeat(2000)}`, /at most 2000/],
  ])('refuses %s', (url, reason) => expect(webhookUrlProblem(url)).toMatch(reason));

  it('takes a non-empty list of known event types, each once', () => {
    expect(webhookEventsProblem(['memory.pending_review', 'user.erased'])).toBeUndefined();
    expect(webhookEventsProblem(['nope', 42])).toMatch(/unknown: nope, 42/);
  });
});
