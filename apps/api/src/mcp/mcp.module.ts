import { Module } from '@nestjs/common';
import { AgentToolsModule } from '../agent-tools/agent-tools.module';
import { McpController } from './mcp.controller';
import { WrittenPositions } from './written-positions';

/** MCP at /mcp: the agent tools' one toolbox, served over Streamable HTTP. */
@Module({
  imports: [AgentToolsModule],
  controllers: [McpController],
  providers: [WrittenPositions],
})
export class McpModule {}
