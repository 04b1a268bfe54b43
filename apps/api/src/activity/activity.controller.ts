import { Controller, Get, Query } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiOkResponse,
  ApiProperty,
  ApiPropertyOptional,
  ApiTags,
} from '@nestjs/swagger';
import { PageQuery } from '../http/page-query';
import { CurrentPrincipal, type Principal } from '@engram/auth';
import {
  actionsProjection,
  activityProjection,
  findActivityPage,
  type ActivityGroup,
} from '@engram/projections';
import { ReadModels } from '../read-models/read-models';
import { parseActivityCursor } from './activity-cursor';

export class ActivityQuery extends PageQuery {}

/** The feed, and the actions whose titles name its groups. */
const ACTIVITY_READ_MODELS = [activityProjection.name, actionsProjection.name];

export class ActivityResponse {
  @ApiProperty({
    description:
      'Groups newest first (by their first event); one group per trace, an event without a trace is a group of one',
  })
  items!: object[];
  @ApiPropertyOptional({ nullable: true }) nextCursor!: string | null;
}

/** The caller's own activity feed (seed 000's /personal/activity), enforced by row-level security. */
@ApiTags('me')
@ApiBearerAuth()
@Controller('v1/me/activity')
export class ActivityController {
  constructor(private readonly readModels: ReadModels) {}

  @Get()
  @ApiOkResponse({ type: ActivityResponse })
  async feed(
    @CurrentPrincipal() me: Principal,
    @Query() query: ActivityQuery,
  ): Promise<ActivityResponse> {
    await this.readModels.catchUp(me, ACTIVITY_READ_MODELS, query);
    const before = query.cursor === undefined ? undefined : parseActivityCursor(query.cursor);
    const limit = query.limit ?? 20;
    const groups = await this.readModels.read(me, (manager) =>
      findActivityPage(manager, me.workspaceId, me.userId, {
        ...(before ? { beforeFirstPosition: before } : {}),
        limit: limit + 1,
      }),
    );
    const page = groups.slice(0, limit);
    return {
      items: page.map(toJson),
      nextCursor: groups.length > limit ? (page.at(-1)?.firstPosition ?? null) : null,
    };
  }
}

function toJson(group: ActivityGroup) {
  return {
    ...(group.traceId ? { traceId: group.traceId } : {}),
    title: group.title,
    channels: group.channels,
    firstAt: group.firstAt.toISOString(),
    lastAt: group.lastAt.toISOString(),
    events: group.events.map((event) => ({
      type: event.type,
      at: event.at.toISOString(),
      ...(event.channel ? { channel: event.channel } : {}),
      summary: event.summary,
    })),
  };
}
