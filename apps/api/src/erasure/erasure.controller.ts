import { Controller, Headers, HttpCode, Inject, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiProperty, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, Roles, type Principal } from '@engram/auth';
import { erasureDecider, userStream } from '@engram/domain';
import type { EventStore } from '@engram/event-store';
import { EVENT_STORE } from '@engram/platform';
import { CommandGateway } from '../commands/command-gateway';
import { IdentifierParam } from '../http/path-params';
import { positionToJson } from '../http/position';
import { correlationIdOf, type Headers as RequestHeaders } from '../http/request-context';
import { USER_KEYS, type UserKeys } from './user-keys';

export class ErasureResponse {
  @ApiProperty({ enum: ['erased'] }) status!: 'erased';
  @ApiProperty({ description: 'Streams of the user deleted by this request' })
  streamsDeleted!: number;
  @ApiProperty({ description: 'Position of the UserErased event' }) position!: number;
}

/**
 * GDPR erasure: records who erased the user (UserErased, no personal data), destroys the user's data
 * key (what remains of their events is unreadable), deletes their streams (tombstones on EventStoreDB)
 * except the erasure record, and the projections delete their read-model rows on UserErased.
 * Every step is idempotent, so a request interrupted half way is completed by the next one.
 */
@ApiTags('auditor')
@ApiBearerAuth()
@Roles('auditor')
@Controller('v1/workspaces/:ws/users/:userId/erasure')
export class ErasureController {
  constructor(
    private readonly commands: CommandGateway,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(USER_KEYS) private readonly keys: UserKeys,
  ) {}

  @Post()
  @HttpCode(200)
  @ApiOkResponse({ type: ErasureResponse })
  async erase(
    @Param('ws', new IdentifierParam('ws')) workspaceId: string,
    @Param('userId', new IdentifierParam('userId')) userId: string,
    @CurrentPrincipal() auditor: Principal,
    @Headers() headers: RequestHeaders,
  ): Promise<ErasureResponse> {
    const record = userStream(workspaceId, userId, 'erasure', 'record');
    const result = await this.commands.decide(
      record,
      erasureDecider,
      { type: 'EraseUser', requestedBy: auditor.userId },
      { workspaceId, userId, correlationId: correlationIdOf(headers) },
    );
    await this.keys.destroyKey(workspaceId, userId);
    const streams = new Set<string>();
    for (let after: bigint | 'start' = 'start'; ;) {
      const page = await this.store.readUserEvents(workspaceId, userId, { after, maxCount: 1000 });
      for (const event of page) if (event.streamId !== record) streams.add(event.streamId);
      const last = page.at(-1);
      if (!last) break;
      after = last.globalPosition;
    }
    for (const stream of streams) await this.store.deleteStream(stream);
    return {
      status: 'erased',
      streamsDeleted: streams.size,
      position: positionToJson(result.position),
    };
  }
}
