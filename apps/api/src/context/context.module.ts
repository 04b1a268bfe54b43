import { Module } from '@nestjs/common';
import { ContextController } from './context.controller';
import { MemoryUsageRecorder } from './memory-usage.recorder';

/** The agent context: everything an agent puts in its prompt, in one call. */
@Module({ controllers: [ContextController], providers: [MemoryUsageRecorder] })
export class ContextModule {}
