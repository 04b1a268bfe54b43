import { Inject, Injectable, NotFoundException } from '@nestjs/common';
import type { Clock } from '@engram/domain';
import { CLOCK } from '@engram/platform';
import {
  actionsProjection,
  findAction,
  findMemoryPolicy,
  findPendingActionsPage,
  recallActions,
  workspacePoliciesProjection,
  type Owner,
} from '@engram/projections';
import {
  recalledActionLine,
  renderPendingActions,
  renderRecalledActions,
  RECALL_ACTIONS_DAYS,
} from '@engram/prompt-blocks';
import type { EntityManager } from 'typeorm';
import { decodeCursor, encodeCursor } from '../memories/review-cursor';
import { ReadModels } from '../read-models/read-models';
import type { ReadQuery } from '../read-models/read-query';
import { toActionView } from './action-view';
import type { ActionViewResponse } from './action-view.response';
import type { PendingActionsArgs, PendingActionsResponse } from './pending-actions.dto';
import type { RecallActionsBody, RecallActionsResponse } from './recall-actions.dto';

const RECALL_LIMIT = 20;
const ACTION_READ_MODELS = [actionsProjection.name, workspacePoliciesProjection.name];

/** An answer of a read: the route's JSON, and the same in words for a model. */
export type ActionAnswer<T> = Readonly<{ data: T; text: string }>;

/**
 * The reads of a user's actions (recall_actions, one action, the pending ones), for the routes and
 * the agent tools alike: the actions read model, under the agent's identity for that user.
 */
@Injectable()
export class ActionReads {
  constructor(
    private readonly readModels: ReadModels,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Reads the actions read model only: no event, no row is ever written here. */
  async recall(
    owner: Owner,
    body: RecallActionsBody,
    read: ReadQuery,
  ): Promise<ActionAnswer<RecallActionsResponse>> {
    const since = this.clock
      .now()
      .minus({ days: body.days ?? RECALL_ACTIONS_DAYS.default })
      .toJSDate();
    const { rows, policy } = await this.read(owner, read, async (manager) => ({
      policy: await findMemoryPolicy(manager, owner.workspaceId),
      rows: await recallActions(manager, owner.workspaceId, owner.userId, {
        ...(body.query ? { query: body.query } : {}),
        ...(body.status ? { status: body.status } : {}),
        since,
        limit: RECALL_LIMIT,
      }),
    }));
    const actions = rows.map(toActionView);
    const text = renderRecalledActions(actions, {
      timeZone: policy.timeZone,
      locale: policy.locale,
    });
    return { data: { actions, text }, text };
  }

  async get(
    owner: Owner,
    actionId: string,
    read: ReadQuery,
  ): Promise<ActionAnswer<ActionViewResponse>> {
    const { row, policy } = await this.read(owner, read, async (manager) => ({
      policy: await findMemoryPolicy(manager, owner.workspaceId),
      row: await findAction(manager, owner.workspaceId, owner.userId, actionId.toLowerCase()),
    }));
    if (!row) throw new NotFoundException(`No action ${actionId} for this user`);
    const action = toActionView(row);
    return {
      data: action,
      text: recalledActionLine(action, { timeZone: policy.timeZone, locale: policy.locale }),
    };
  }

  async pending(
    owner: Owner,
    page: PendingActionsArgs,
    read: ReadQuery,
  ): Promise<ActionAnswer<PendingActionsResponse>> {
    // The review queue's keyset cursor: an instant, then a UUID (here the action's).
    const after = page.cursor === undefined ? undefined : decodeCursor(page.cursor);
    const limit = page.limit ?? 20;
    const { rows, policy } = await this.read(owner, read, async (manager) => ({
      policy: await findMemoryPolicy(manager, owner.workspaceId),
      rows: await findPendingActionsPage(manager, owner.workspaceId, owner.userId, {
        ...(after ? { after: { createdAt: after.createdAt, actionId: after.memoryId } } : {}),
        limit: limit + 1,
      }),
    }));
    const shown = rows.slice(0, limit);
    const last = shown.at(-1);
    const items = shown.map(toActionView);
    return {
      data: {
        items,
        nextCursor:
          rows.length > limit && last
            ? encodeCursor({ createdAt: last.createdAt.toISOString(), memoryId: last.actionId })
            : null,
      },
      text: renderPendingActions(items, { timeZone: policy.timeZone, locale: policy.locale }),
    };
  }

  private async read<T>(
    owner: Owner,
    read: ReadQuery,
    query: (manager: EntityManager) => Promise<T>,
  ): Promise<T> {
    await this.readModels.catchUp(owner, ACTION_READ_MODELS, read);
    return this.readModels.read({ ...owner, roles: ['agent'] }, query);
  }
}
