import { Controller, Headers, HttpCode, Inject, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiProperty, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, Roles, type Principal } from '@engram/auth';
import type { Clock } from '@engram/domain';
import { EventCodec, type EventStore } from '@engram/event-store';
import { CLOCK, EVENT_STORE } from '@engram/platform';
import { IdentifierParam } from '../http/path-params';
import { positionToJson } from '../http/position';
import { correlationIdOf, type Headers as RequestHeaders } from '../http/request-context';
import { USER_KEYS, eraseUser, type UserKeys } from '@engram/gdpr';

export class ErasureResponse {
  @ApiProperty({ enum: ['erased'] }) status!: 'erased';
  @ApiProperty({ description: 'Streams of the user deleted by this request' })
  streamsDeleted!: number;
  @ApiProperty({ description: 'Position of the UserErased event' }) position!: number;
}

/** GDPR erasure by crypto-shredding (auditors of the workspace); see eraseUser. */
@ApiTags('auditor')
@ApiBearerAuth()
@Roles('auditor')
@Controller('v1/workspaces/:ws/users/:userId/erasure')
export class ErasureController {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly codec: EventCodec,
    @Inject(USER_KEYS) private readonly keys: UserKeys,
    @Inject(CLOCK) private readonly clock: Clock,
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
    const outcome = await eraseUser(
      { store: this.store, codec: this.codec, keys: this.keys, clock: this.clock },
      workspaceId,
      userId,
      auditor.userId,
      correlationIdOf(headers),
    );
    return {
      status: 'erased',
      streamsDeleted: outcome.streamsDeleted,
      position: positionToJson(outcome.position),
    };
  }
}
