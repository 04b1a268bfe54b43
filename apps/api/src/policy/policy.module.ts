import { Module } from '@nestjs/common';
import { AgentsController } from './agents.controller';
import { MemorySettingsController } from './memory-settings.controller';
import { PolicyController } from './policy.controller';

/** Who decides what is remembered: the workspace policy, memory per agent (admins), a user's switch and pause. */
@Module({ controllers: [PolicyController, AgentsController, MemorySettingsController] })
export class PolicyModule {}
