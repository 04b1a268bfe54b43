import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ActionStatus } from '@engram/domain';
import { badRequests } from './bad-requests';
import { assistantText, userText } from './sentences';
import type { SoakApi } from './soak-api';
import type { MessageAnswer, ProposalAnswer, SoakLog, TrackedAction } from './soak-log';
import {
  AGENT_ID,
  MUTED_AGENT_ID,
  SOAK_WORKSPACE,
  pick,
  userPath,
  type SoakUsers,
} from './soak-users';

const CHANNELS = ['telegram', 'web', 'email'] as const;
const TOOLS = [
  { tool: 'gmail_send', target: 'delphine@acme.fr', summary: 'Relance facture Q2' },
  { tool: 'calendar_create', target: 'Dentiste', summary: 'Rendez-vous mardi 10 h' },
  { tool: 'train_book', target: 'Paris → Lyon', summary: 'Book the 7:45 train on Tuesday' },
  { tool: 'reminder_set', summary: 'Appeler le plombier demain matin' },
];
/** Mean pause between two calls of one virtual client: a busy assistant, not a flood. */
const THINK_MS = 25;

type MemoryItem = Readonly<{ memoryId: string; status: string }>;
type MemorySwitch = 'on' | 'off' | 'paused';

/** What the virtual clients share: the API, the users and their tokens, the log, the memory switches. */
export type TrafficContext = Readonly<{
  api: SoakApi;
  users: SoakUsers;
  log: SoakLog;
  switches: Map<string, MemorySwitch>;
}>;

/** Runs `clients` virtual clients until `stop` is called; `done` resolves when the last one ends. */
export function startTraffic(context: TrafficContext, clients: number) {
  const signal = new AbortController();
  const done = Promise.all(
    Array.from({ length: clients }, () => new VirtualClient(context).run(signal.signal)),
  ).then(() => undefined);
  return {
    done,
    stop: async () => {
      signal.abort();
      await done;
    },
  };
}

/**
 * One agent service and the people behind it: it posts messages, proposes actions and moves the
 * ones it proposed on (from other channels), reads context, reviews, retries and errs, at random.
 * Each client moves only its own actions, so it knows the last status each one was told.
 */
class VirtualClient {
  private readonly messages: string[] = [];
  private readonly actions: string[] = [];
  private readonly open = new Set<string>();
  private readonly mix: readonly (readonly [number, () => Promise<void>])[] = [
    [30, () => this.postMessage('user')],
    [8, () => this.postMessage('assistant')],
    [10, () => this.proposeAction()],
    [12, () => this.advanceAction()],
    [12, () => this.readContext()],
    [5, () => this.recallActions()],
    [6, () => this.readMyMemories()],
    [5, () => this.readMyActivity()],
    [5, () => this.review()],
    [2, () => this.switchMemory()],
    [2, () => this.deleteMemory()],
    [0.4, () => this.wipeMemories()],
    [3, () => this.retryMessage()],
    [2, () => this.retryProposal()],
    [3, () => this.sendBadRequest()],
  ];
  private readonly totalWeight = this.mix.reduce((sum, [weight]) => sum + weight, 0);

  constructor(private readonly context: TrafficContext) {}

  async run(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      await this.nextOperation()();
      await sleep(Math.random() * 2 * THINK_MS);
    }
  }

  private nextOperation(): () => Promise<void> {
    let draw = Math.random() * this.totalWeight;
    for (const [weight, operation] of this.mix) {
      draw -= weight;
      if (draw < 0) return operation;
    }
    return this.mix[0]![1];
  }

  private get api() {
    return this.context.api;
  }

  private get agent() {
    return this.context.users.agentToken;
  }

  private async postMessage(role: 'user' | 'assistant'): Promise<void> {
    const userId = pick(this.context.users.ids);
    const body = {
      messageId: randomUUID(),
      sessionId: pick(['s1', 's2', 's3']),
      role,
      channel: pick(CHANNELS),
      agentId: Math.random() < 0.1 ? MUTED_AGENT_ID : AGENT_ID,
      text: role === 'user' ? userText() : assistantText(),
    };
    const reply = await this.api.send<MessageAnswer>(
      role === 'user' ? 'POST message' : 'POST message (assistant)',
      userPath(userId, 'messages'),
      { method: 'POST', token: this.agent, body },
    );
    if (reply.status === 202 && reply.json) {
      this.context.log.messages.set(body.messageId, { userId, body, answer: reply.json });
      this.messages.push(body.messageId);
    }
  }

  private async proposeAction(): Promise<void> {
    const userId = pick(this.context.users.ids);
    const requiresConfirmation = Math.random() < 0.7;
    const body = {
      actionId: randomUUID(),
      ...pick(TOOLS),
      input: { note: 'soak', at: new Date().toISOString() },
      channel: pick(CHANNELS),
      requiresConfirmation,
      // Some expire while the soak runs.
      ...(requiresConfirmation && Math.random() < 0.3
        ? { ttlSeconds: 3 + Math.round(Math.random() * 3) }
        : {}),
    };
    const reply = await this.api.send<ProposalAnswer>('POST action', userPath(userId, 'actions'), {
      method: 'POST',
      token: this.agent,
      body,
    });
    if (reply.status !== 201 || !reply.json) return;
    this.context.log.actions.set(body.actionId, {
      userId,
      body,
      answer: reply.json,
      told: reply.json.status,
      transitioned: false,
    });
    this.actions.push(body.actionId);
    this.open.add(body.actionId);
  }

  private async advanceAction(): Promise<void> {
    if (this.open.size === 0) return this.proposeAction();
    const actionId = pick([...this.open]);
    const action = this.context.log.actions.get(actionId)!;
    const [step, body] = nextStep(action);
    const reply = await this.api.send<{ status: ActionStatus }>(
      step,
      userPath(action.userId, `actions/${actionId}/${step}`),
      { method: 'POST', token: this.agent, body },
    );
    if (reply.status === 200 && reply.json) {
      action.told = reply.json.status;
      action.transitioned = true;
      if (!['pending', 'confirmed'].includes(action.told)) this.open.delete(actionId);
      return;
    }
    this.open.delete(actionId);
    if (reply.status >= 400 && reply.status < 500 && !mayHaveExpired(action)) {
      this.context.log.refusedTransitions.push(
        `${step} of ${actionId} (told ${action.told}): ${reply.status}`,
      );
    }
  }

  private async readContext(): Promise<void> {
    const userId = pick(this.context.users.ids);
    const query = `sessionId=${pick(['s1', 's2', 's3'])}&agentId=${AGENT_ID}&locale=${pick(['fr', 'en'])}`;
    await this.api.send('GET context', userPath(userId, `context?${query}`), {
      token: this.agent,
    });
  }

  private async recallActions(): Promise<void> {
    const userId = pick(this.context.users.ids);
    await this.api.send('recall_actions', userPath(userId, 'tools/recall_actions'), {
      method: 'POST',
      token: this.agent,
      body: { query: pick(['facture', 'train', 'dentiste', 'plombier']), days: 7 },
    });
  }

  private async readMyMemories(): Promise<void> {
    const userId = pick(this.context.users.ids);
    await this.api.send('GET me/memories', '/v1/me/memories', {
      token: this.context.users.tokenOf(userId),
    });
  }

  private async readMyActivity(): Promise<void> {
    const userId = pick(this.context.users.ids);
    await this.api.send('GET me/activity', '/v1/me/activity?limit=20', {
      token: this.context.users.tokenOf(userId),
    });
  }

  private async review(): Promise<void> {
    const token = this.context.users.adminToken;
    const queue = await this.api.send<{ items: MemoryItem[] }>(
      'GET review queue',
      `/v1/workspaces/${SOAK_WORKSPACE}/memories?status=pending&limit=10`,
      { token },
    );
    const items = queue.json?.items ?? [];
    if (items.length === 0) return;
    const { memoryId } = pick(items);
    const approve = Math.random() < 0.75;
    await this.api.send(
      approve ? 'approve' : 'reject',
      `/v1/workspaces/${SOAK_WORKSPACE}/memories/${memoryId}/${approve ? 'approve' : 'reject'}`,
      { method: 'POST', token, ...(approve ? {} : { body: { reason: 'not useful' } }) },
    );
  }

  private async switchMemory(): Promise<void> {
    const userId = pick(this.context.users.ids);
    const current = this.context.switches.get(userId) ?? 'on';
    const next: MemorySwitch = current !== 'on' ? 'on' : pick(['off', 'paused'] as const);
    const body =
      next === 'paused'
        ? { enabled: true, pausedUntil: new Date(Date.now() + 15_000).toISOString() }
        : { enabled: next === 'on' };
    const reply = await this.api.send('PUT memory-settings', '/v1/me/memory-settings', {
      method: 'PUT',
      token: this.context.users.tokenOf(userId),
      body,
    });
    if (reply.status === 200) this.context.switches.set(userId, next);
  }

  private async deleteMemory(): Promise<void> {
    const userId = pick(this.context.users.ids);
    const token = this.context.users.tokenOf(userId);
    const reply = await this.api.send<{ items: MemoryItem[] }>(
      'GET me/memories',
      '/v1/me/memories',
      {
        token,
      },
    );
    const items = reply.json?.items ?? [];
    if (items.length === 0) return;
    await this.api.send('DELETE memory', `/v1/me/memories/${pick(items).memoryId}`, {
      method: 'DELETE',
      token,
    });
  }

  private async wipeMemories(): Promise<void> {
    const userId = pick(this.context.users.ids);
    await this.api.send('wipe', '/v1/me/memories/wipe', {
      method: 'POST',
      token: this.context.users.tokenOf(userId),
    });
  }

  /** The same message again, as a client that lost the first answer: same answer, nothing written. */
  private async retryMessage(): Promise<void> {
    if (this.messages.length === 0) return this.postMessage('user');
    const first = this.context.log.messages.get(pick(this.messages))!;
    const reply = await this.api.send<MessageAnswer>(
      'retry message',
      userPath(first.userId, 'messages'),
      { method: 'POST', token: this.agent, body: first.body },
    );
    this.compareRetry(
      `message ${first.answer.messageId}`,
      reply.status,
      202,
      first.answer,
      reply.json,
      ['messageId', 'traceId', 'position'],
    );
  }

  private async retryProposal(): Promise<void> {
    if (this.actions.length === 0) return this.proposeAction();
    const action = this.context.log.actions.get(pick(this.actions))!;
    const reply = await this.api.send<ProposalAnswer>(
      'retry action',
      userPath(action.userId, 'actions'),
      { method: 'POST', token: this.agent, body: action.body },
    );
    // A retry answers the action as it stands: the same as the first answer while nothing moved it.
    const unmoved = !action.transitioned && !('ttlSeconds' in action.body);
    this.compareRetry(
      `action ${action.answer.actionId}`,
      reply.status,
      201,
      action.answer,
      reply.json,
      unmoved ? ['actionId', 'traceId', 'status', 'position'] : ['actionId', 'traceId'],
    );
  }

  private compareRetry<T extends object>(
    what: string,
    status: number,
    expectedStatus: number,
    first: T,
    again: T | undefined,
    fields: readonly (keyof T)[],
  ): void {
    const log = this.context.log;
    log.retries += 1;
    if (status !== expectedStatus || !again) {
      log.retryMismatches.push(`${what}: ${status} instead of ${expectedStatus}`);
      return;
    }
    const differing = fields.filter((field) => first[field] !== again[field]);
    if (differing.length > 0) {
      log.retryMismatches.push(
        `${what}: ${differing.map((f) => `${String(f)} ${String(first[f])} → ${String(again[f])}`).join(', ')}`,
      );
    }
  }

  private async sendBadRequest(): Promise<void> {
    const bad = pick(badRequests(this.context.users, pick(this.context.users.ids)));
    const reply = await this.api.send('bad request', bad.path, bad.init);
    this.context.log.badRequests += 1;
    if (reply.status < 400 || reply.status >= 500) {
      this.context.log.badRequestsNot4xx.push(`${bad.name}: ${reply.status || 'no answer'}`);
    }
  }
}

/** The next step of an action, from a channel other than the one it was proposed on. */
function nextStep(action: TrackedAction): [string, Record<string, string>] {
  const channel = pick(CHANNELS.filter((c) => c !== (action.body as { channel: string }).channel));
  const draw = Math.random();
  if (action.told === 'pending') {
    return draw < 0.7
      ? ['confirm', { channel }]
      : ['abort', { channel, reason: 'changed my mind' }];
  }
  if (draw < 0.7) return ['execute', { channel }];
  return draw < 0.85 ? ['fail', { error: 'SMTP 550' }] : ['abort', { channel }];
}

/** A pending action at or past its expiry may have expired (a confirmation is then refused). */
export function mayHaveExpired(action: TrackedAction, now = Date.now()): boolean {
  const expiresAt = action.answer.expiresAt;
  // A second of margin: the API's clock and ours are read at slightly different moments.
  return action.told === 'pending' && !!expiresAt && now >= Date.parse(expiresAt) - 1000;
}
