import { Module } from '@nestjs/common';
import { AgentContextReader } from './agent-context-reader';
import { ContextController } from './context.controller';
import { MemoryUsageRecorder } from './memory-usage.recorder';

/** The agent context: everything an agent puts in its prompt, in one call. */
@Module({
  controllers: [ContextController],
  providers: [MemoryUsageRecorder, AgentContextReader],
  exports: [AgentContextReader],
})
export class ContextModule {}
