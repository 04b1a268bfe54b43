import { Controller, Get, NotFoundException, Param, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiProperty, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, type Principal } from '@engram/auth';
import {
  findLiveWindow,
  findMemoryPolicy,
  findSession,
  sessionMessagesProjection,
  sessionsProjection,
  workspacePoliciesProjection,
} from '@engram/projections';
import { IdentifierParam } from '../http/path-params';
import { ReadModels } from '../read-models/read-models';
import { ReadQuery } from '../read-models/read-query';

/** The session, its messages, and the policy that sets the live window's length. */
const SESSION_READ_MODELS = [
  sessionsProjection.name,
  sessionMessagesProjection.name,
  workspacePoliciesProjection.name,
];

export class LiveWindowMessage {
  @ApiProperty() messageId!: string;
  @ApiProperty({ enum: ['user', 'assistant'] }) role!: string;
  @ApiProperty() channel!: string;
  @ApiProperty() text!: string;
  @ApiProperty({ format: 'date-time' }) occurredAt!: string;
}

export class SessionResponse {
  @ApiProperty() sessionId!: string;
  @ApiProperty() messageCount!: number;
  @ApiProperty({ description: 'Messages condensed into the rolling summary' })
  summarizedCount!: number;
  @ApiProperty() rollingSummary!: string;
  @ApiProperty({
    type: [LiveWindowMessage],
    description: 'The last messages, verbatim, oldest first',
  })
  liveWindow!: LiveWindowMessage[];
}

/** One of the caller's sessions: its live window and rolling summary. */
@ApiTags('me')
@ApiBearerAuth()
@Controller('v1/me/sessions')
export class MySessionsController {
  constructor(private readonly readModels: ReadModels) {}

  @Get(':sessionId')
  @ApiOkResponse({ type: SessionResponse })
  async get(
    @CurrentPrincipal() me: Principal,
    @Param('sessionId', new IdentifierParam('sessionId')) sessionId: string,
    @Query() query: ReadQuery,
  ): Promise<SessionResponse> {
    await this.readModels.catchUp(me, SESSION_READ_MODELS, query);
    const { session, window } = await this.readModels.read(me, async (manager) => {
      const policy = await findMemoryPolicy(manager, me.workspaceId);
      return {
        session: await findSession(manager, me.workspaceId, me.userId, sessionId),
        window: await findLiveWindow(
          manager,
          me.workspaceId,
          me.userId,
          sessionId,
          policy.liveWindow,
        ),
      };
    });
    if (!session) throw new NotFoundException(`Session ${sessionId} not found`);
    return {
      sessionId,
      messageCount: session.messageCount,
      summarizedCount: session.summarizedCount,
      rollingSummary: session.rollingSummary,
      liveWindow: window.map((m) => ({
        messageId: m.messageId,
        role: m.role,
        channel: m.channel,
        text: m.text,
        occurredAt: m.occurredAt.toISOString(),
      })),
    };
  }
}
