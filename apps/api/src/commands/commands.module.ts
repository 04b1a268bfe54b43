import { Global, Module } from '@nestjs/common';
import { Commands } from './commands';

/** The one write path of the API (`Commands` → `handleCommand`), for every feature module. */
@Global()
@Module({ providers: [Commands], exports: [Commands] })
export class CommandsModule {}
