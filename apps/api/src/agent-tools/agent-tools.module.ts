import { Module } from '@nestjs/common';
import { ActionsModule } from '../actions/actions.module';
import { ContextModule } from '../context/context.module';
import { MemoriesModule } from '../memories/memories.module';
import { MessagesModule } from '../messages/messages.module';
import { AgentToolImplementations } from './agent-tool-implementations';
import { AgentToolbox } from './agent-toolbox';
import { AgentToolsController } from './agent-tools.controller';

/** The agent tools: one registry (`AgentToolbox`) for the HTTP route and the MCP server. */
@Module({
  imports: [MessagesModule, ContextModule, ActionsModule, MemoriesModule],
  controllers: [AgentToolsController],
  providers: [AgentToolImplementations, AgentToolbox],
  exports: [AgentToolbox],
})
export class AgentToolsModule {}
