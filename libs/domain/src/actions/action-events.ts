import type { Event } from '../event';
import type { EventDefinition } from '../event-definition';

export type ActionProposed = Event<
  'ActionProposed',
  {
    actionId: string;
    tool: string;
    target?: string;
    summary: string;
    input?: Record<string, unknown>;
    /** The channel the action was asked on (web, telegram, email...). */
    channel: string;
    requiresConfirmation: boolean;
    expiresAt?: string;
  }
>;
export type ActionConfirmed = Event<'ActionConfirmed', { actionId: string; channel: string }>;
export type ActionExecuted = Event<
  'ActionExecuted',
  { actionId: string; channel?: string; result?: Record<string, unknown> }
>;
export type ActionAborted = Event<
  'ActionAborted',
  { actionId: string; channel?: string; reason?: string }
>;
export type ActionFailed = Event<'ActionFailed', { actionId: string; error: string }>;
export type ActionExpired = Event<'ActionExpired', { actionId: string; expiresAt: string }>;

export type ActionEvent =
  ActionProposed | ActionConfirmed | ActionExecuted | ActionAborted | ActionFailed | ActionExpired;

export const ACTION_EVENT_DEFINITIONS: readonly EventDefinition[] = [
  { type: 'ActionProposed', version: 1, personalFields: ['target', 'summary', 'input'] },
  { type: 'ActionConfirmed', version: 1, personalFields: [] },
  { type: 'ActionExecuted', version: 1, personalFields: ['result'] },
  { type: 'ActionAborted', version: 1, personalFields: ['reason'] },
  { type: 'ActionFailed', version: 1, personalFields: ['error'] },
  { type: 'ActionExpired', version: 1, personalFields: [] },
];
