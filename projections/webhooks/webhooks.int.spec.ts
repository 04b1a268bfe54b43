import type { SealedSecret, WebhookEventType } from '@engram/domain';
import {
  ROOT,
  defaultOccurredAt,
  projectionSpec,
  type GivenEvent,
  type Owner,
  type ProjectionSpec,
} from '../../test/support/projection-spec';
import { findWebhooksInForce, listWebhooks, subscribedWebhooks } from './webhooks.query';
import { webhooksProjection } from './webhooks.projection';

const SEALED: SealedSecret = { v: 1, iv: 'aXY=', tag: 'dGFn', ct: 'Y3Q=' };
const HOOK_A = '11111111-1111-4111-8111-111111111111';
const HOOK_B = '22222222-2222-4222-8222-222222222222';
const ROOT_W2: Owner = { workspaceId: 'w2', userId: 'root2' };
const at = (position: number) => new Date(defaultOccurredAt(position));

function registered(
  webhookId: string,
  events: WebhookEventType[],
  owner: Owner = ROOT,
  description?: string,
): GivenEvent {
  return {
    type: 'WebhookRegistered',
    data: {
      webhookId,
      url: `https://hooks.example.com/${webhookId.slice(0, 4)}`,
      events,
      ...(description ? { description } : {}),
      sealedSecret: SEALED,
      registeredBy: owner.userId,
    },
    owner,
    streamId: `${owner.workspaceId}/~/webhook/${webhookId}`,
  };
}

function removed(webhookId: string, owner: Owner = ROOT): GivenEvent {
  return {
    type: 'WebhookRemoved',
    data: { webhookId, removedBy: owner.userId },
    owner,
    streamId: `${owner.workspaceId}/~/webhook/${webhookId}`,
  };
}

describe('webhooks projection', () => {
  let spec: ProjectionSpec;

  beforeAll(async () => {
    spec = await projectionSpec(webhooksProjection);
  });

  afterAll(async () => {
    await spec.close();
  });

  it('given WebhookRegistered, then one row: URL, events, the sealed secret, when, by whom, at which position', async () => {
    expect(await spec.given([registered(HOOK_A, ['action.expired'], ROOT, 'billing')])).toEqual([
      {
        workspace_id: 'w1',
        webhook_id: HOOK_A,
        url: 'https://hooks.example.com/1111',
        events: ['action.expired'],
        description: 'billing',
        sealed_secret: SEALED,
        registered_at: at(1),
        registered_by: 'root',
        registered_position: '1',
        removed_at: null,
        removed_by: null,
      },
    ]);
  });

  it('given WebhookRemoved, then the row stays, marked removed, its secret dropped', async () => {
    const rows = await spec.given([registered(HOOK_A, ['action.expired']), removed(HOOK_A)]);
    expect(rows).toEqual([
      expect.objectContaining({
        webhook_id: HOOK_A,
        sealed_secret: null,
        removed_at: at(2),
        removed_by: 'root',
      }),
    ]);
    // Applied one by one or together: the same rows.
    expect(
      await spec.given([registered(HOOK_A, ['action.expired']), removed(HOOK_A)], {
        batchSize: 1,
      }),
    ).toEqual(rows);
  });

  it('lists the endpoints in force; finds the subscribed ones registered before an event', async () => {
    await spec.given([
      registered(HOOK_A, ['action.expired', 'user.erased']),
      registered(HOOK_B, ['user.erased']),
      registered(HOOK_A, ['user.erased'], ROOT_W2),
    ]);
    const manager = spec.projector.manager;
    expect((await listWebhooks(manager, 'w1')).map((row) => row.webhookId)).toEqual([
      HOOK_A,
      HOOK_B,
    ]);
    const subscribed = async (type: WebhookEventType, position: bigint) =>
      subscribedWebhooks(await findWebhooksInForce(manager, 'w1'), type, position).map(
        (row) => row.webhookId,
      );
    expect(await subscribed('user.erased', 10n)).toEqual([HOOK_A, HOOK_B]);
    expect(await subscribed('user.erased', 2n)).toEqual([HOOK_A]);
    expect(await subscribed('action.expired', 10n)).toEqual([HOOK_A]);
    expect(await subscribed('memory.approved', 10n)).toEqual([]);
    await spec.when([removed(HOOK_A)]);
    expect(await subscribed('user.erased', 10n)).toEqual([HOOK_B]);
    expect((await listWebhooks(manager, 'w1')).map((row) => row.webhookId)).toEqual([HOOK_B]);
  });

  it("RLS: a member of w1 sees w1's endpoints, never w2's", async () => {
    await spec.given([
      registered(HOOK_A, ['user.erased']),
      registered(HOOK_B, ['user.erased'], ROOT_W2),
    ]);
    const seen = await spec.asUser(ROOT, (manager) => listWebhooks(manager, 'w1'), ['admin']);
    expect(seen.map((row) => row.webhookId)).toEqual([HOOK_A]);
    expect(await spec.asUser(ROOT, (manager) => listWebhooks(manager, 'w2'), ['admin'])).toEqual(
      [],
    );
  });
});
