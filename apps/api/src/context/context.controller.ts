import { Controller, Get, Param, Query } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiExtraModels,
  ApiOkResponse,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import { Roles } from '@engram/auth';
import { IdentifierParam } from '../http/path-params';
import { AgentContextReader, type ContextReading } from './agent-context-reader';
import { ContextQuery } from './context.dto';
import { AgentContextMessagesResponse, AgentContextResponse } from './context.response';

/** What an agent puts in its prompt on every turn (`AgentContextReader`). */
@ApiTags('agent')
@ApiBearerAuth()
@Roles('agent')
@ApiExtraModels(AgentContextResponse, AgentContextMessagesResponse)
@Controller('v1/workspaces/:ws/users/:userId/context')
export class ContextController {
  constructor(private readonly reader: AgentContextReader) {}

  @Get()
  @ApiOkResponse({
    description:
      'The blocks (default), or with format=messages the same as chat messages (AgentContextMessagesResponse)',
    schema: {
      oneOf: [
        { $ref: getSchemaPath(AgentContextResponse) },
        { $ref: getSchemaPath(AgentContextMessagesResponse) },
      ],
    },
  })
  async context(
    @Param('ws', new IdentifierParam('ws')) workspaceId: string,
    @Param('userId', new IdentifierParam('userId')) userId: string,
    @Query() query: ContextQuery,
  ): Promise<ContextReading['data']> {
    return (await this.reader.read({ workspaceId, userId }, query, query)).data;
  }
}
