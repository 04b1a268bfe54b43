import { Module } from '@nestjs/common';
import { IdentityCardController } from '../identity-card/identity-card.controller';
import { MemorySettingsController } from '../memory-settings/memory-settings.controller';
import { MySessionsController } from '../sessions/my-sessions.controller';
import { MyMemoriesController } from './my-memories.controller';

/** The narrative memory as its user sees it: memories, settings, identity card, sessions. */
@Module({
  controllers: [
    MyMemoriesController,
    MemorySettingsController,
    IdentityCardController,
    MySessionsController,
  ],
})
export class MyMemoriesModule {}
