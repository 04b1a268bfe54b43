import { Module } from '@nestjs/common';
import { ActionCommands } from './action-commands';
import { ActionReads } from './action-reads';
import { ActivityController } from './activity.controller';
import { ActionsController } from './actions.controller';
import { RecallActionsController } from './recall-actions.controller';

/** Operational memory: actions across channels, the recall_actions tool, the activity feed. */
@Module({
  controllers: [ActionsController, RecallActionsController, ActivityController],
  providers: [ActionCommands, ActionReads],
  exports: [ActionCommands, ActionReads],
})
export class ActionsModule {}
