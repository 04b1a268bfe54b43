import { Allow, IsIn, IsUUID } from 'class-validator';
import { ACTION_TRANSITIONS, type ActionTransitionName } from '@engram/prompt-blocks';

/** The arguments of the tools that have no HTTP body of their own (their routes take a path). */
export class ForgetMemoryArgs {
  @IsUUID('all', { message: 'memoryId must be a UUID' })
  memoryId!: string;
}

export class ActionIdArgs {
  @IsUUID('all', { message: 'actionId must be a UUID' })
  actionId!: string;
}

/**
 * `update_action`: the action and the transition; the other fields are those the transition's
 * route takes, checked by that route's body DTO (`ConfirmActionBody`…) once the transition is known.
 */
export class UpdateActionArgs extends ActionIdArgs {
  @IsIn(ACTION_TRANSITIONS, {
    message: `transition must be one of: ${ACTION_TRANSITIONS.join(', ')}`,
  })
  transition!: ActionTransitionName;

  @Allow() channel?: unknown;
  @Allow() result?: unknown;
  @Allow() reason?: unknown;
  @Allow() error?: unknown;
}
