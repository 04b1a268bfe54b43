import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  actionDecider,
  deterministicId,
  userStream,
  type ActionCommand,
  type ActionStatus,
  type Clock,
} from '@engram/domain';
import { CLOCK } from '@engram/platform';
import type { Owner } from '@engram/projections';
import { Commands } from '../commands/commands';
import { positionToJson } from '../http/position';
import {
  DEFAULT_ACTION_TTL_SECONDS,
  type ActionTransitionResponse,
  type ProposeActionBody,
  type ProposeActionResponse,
} from './action.dto';

/** A step of an action's life and the fields each takes (the routes …/confirm, /execute, /abort, /fail). */
export type ActionTransition =
  | Readonly<{ transition: 'confirm'; channel: string }>
  | Readonly<{
      transition: 'execute';
      channel?: string | undefined;
      result?: Record<string, unknown> | undefined;
    }>
  | Readonly<{ transition: 'abort'; channel?: string | undefined; reason?: string | undefined }>
  | Readonly<{ transition: 'fail'; error: string }>;

/** The writes of actions, for the routes and the tools `propose_action` and `update_action`. */
@Injectable()
export class ActionCommands {
  constructor(
    private readonly commands: Commands,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async propose(
    { workspaceId, userId }: Owner,
    body: ProposeActionBody,
    correlationId: string,
  ): Promise<ProposeActionResponse> {
    const actionId = (body.actionId ?? randomUUID()).toLowerCase();
    // Derived from the action when not given, so that copies of a retried proposal agree on it.
    const traceId = body.traceId ?? deterministicId('trace', workspaceId, userId, actionId);
    const requiresConfirmation = body.requiresConfirmation ?? true;
    const now = this.clock.now().toUTC();
    const expiresAt = requiresConfirmation
      ? now.plus({ seconds: body.ttlSeconds ?? DEFAULT_ACTION_TTL_SECONDS }).toISO()!
      : undefined;
    const result = await this.commands.decide(
      userStream(workspaceId, userId, 'action', actionId),
      actionDecider,
      {
        type: 'ProposeAction',
        data: {
          actionId,
          tool: body.tool,
          ...(body.target ? { target: body.target } : {}),
          summary: body.summary,
          ...(body.input ? { input: body.input } : {}),
          channel: body.channel,
          requiresConfirmation,
          ...(expiresAt ? { expiresAt } : {}),
        },
      },
      {
        workspaceId,
        userId,
        traceId,
        channel: body.channel,
        causationId: actionId,
        correlationId,
      },
      () => [deterministicId('action-proposed', workspaceId, userId, actionId)],
    );
    const first = result.history[0];
    const state = result.state;
    return {
      actionId,
      traceId: first?.metadata.traceId ?? traceId,
      status: state.status === 'absent' ? 'pending' : state.status,
      ...(state.status !== 'absent' && state.expiresAt ? { expiresAt: state.expiresAt } : {}),
      position: positionToJson(result.position),
    };
  }

  async transition(
    { workspaceId, userId }: Owner,
    actionId: string,
    step: ActionTransition,
    correlationId: string,
  ): Promise<ActionTransitionResponse> {
    const { command, status, channel } = this.commandOf(step);
    const result = await this.commands.decide(
      userStream(workspaceId, userId, 'action', actionId),
      actionDecider,
      command,
      { workspaceId, userId, channel, correlationId },
      undefined,
      { inheritTrace: true },
    );
    return { status, position: positionToJson(result.position) };
  }

  private commandOf(step: ActionTransition): Readonly<{
    command: ActionCommand;
    status: ActionStatus;
    channel: string | undefined;
  }> {
    switch (step.transition) {
      case 'confirm':
        return {
          command: {
            type: 'ConfirmAction',
            channel: step.channel,
            now: this.clock.now().toUTC().toISO()!,
          },
          status: 'confirmed',
          channel: step.channel,
        };
      case 'execute':
        return {
          command: { type: 'ExecuteAction', channel: step.channel, result: step.result },
          status: 'executed',
          channel: step.channel,
        };
      case 'abort':
        return {
          command: { type: 'AbortAction', channel: step.channel, reason: step.reason },
          status: 'aborted',
          channel: step.channel,
        };
      case 'fail':
        return {
          command: { type: 'FailAction', error: step.error },
          status: 'failed',
          channel: undefined,
        };
    }
  }
}
