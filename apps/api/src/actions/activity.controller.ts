import { Controller, Get, Headers, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiHeader, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, type Principal } from '@engram/auth';
import {
  actionsProjection,
  activityProjection,
  findActivityPage,
  findMemoryPolicy,
  workspacePoliciesProjection,
  type ActivityGroup,
} from '@engram/projections';
import { activitySummary, activityTitle, type ActivityTextOptions } from '@engram/prompt-blocks';
import { localeFromAcceptLanguage } from '../http/accept-language';
import { ReadModels } from '../read-models/read-models';
import { parseActivityCursor } from './activity-cursor';
import { ActivityQuery, ActivityResponse, type ActivityGroupResponse } from './activity.dto';

/** The feed, the actions whose titles name its groups, the policy giving its language and zone. */
const ACTIVITY_READ_MODELS = [
  activityProjection.name,
  actionsProjection.name,
  workspacePoliciesProjection.name,
];

/** The caller's own activity feed (seed 000's /personal/activity), enforced by row-level security. */
@ApiTags('me')
@ApiBearerAuth()
@Controller('v1/me/activity')
export class ActivityController {
  constructor(private readonly readModels: ReadModels) {}

  @Get()
  @ApiHeader({
    name: 'Accept-Language',
    required: false,
    description: 'fr or en, when ?locale is absent (the answer says which in Content-Language)',
  })
  @ApiOkResponse({ type: ActivityResponse })
  async feed(
    @CurrentPrincipal() me: Principal,
    @Query() query: ActivityQuery,
    @Headers('accept-language') acceptLanguage: string | undefined,
    @Res({ passthrough: true }) response: { header(name: string, value: string): unknown },
  ): Promise<ActivityResponse> {
    await this.readModels.catchUp(me, ACTIVITY_READ_MODELS, query);
    const before = query.cursor === undefined ? undefined : parseActivityCursor(query.cursor);
    const limit = query.limit ?? 20;
    const { groups, policy } = await this.readModels.read(me, async (manager) => ({
      groups: await findActivityPage(manager, me.workspaceId, me.userId, {
        ...(before ? { beforeFirstPosition: before } : {}),
        limit: limit + 1,
      }),
      policy: await findMemoryPolicy(manager, me.workspaceId),
    }));
    const text: ActivityTextOptions = {
      locale: query.locale ?? localeFromAcceptLanguage(acceptLanguage) ?? policy.locale,
      timeZone: policy.timeZone,
    };
    response.header('Content-Language', text.locale);
    const page = groups.slice(0, limit);
    return {
      items: page.map((group) => toJson(group, text)),
      nextCursor: groups.length > limit ? (page.at(-1)?.firstPosition ?? null) : null,
    };
  }
}

function toJson(group: ActivityGroup, text: ActivityTextOptions): ActivityGroupResponse {
  return {
    ...(group.traceId ? { traceId: group.traceId } : {}),
    title: activityTitle(group.title, text),
    channels: group.channels,
    firstAt: group.firstAt.toISOString(),
    lastAt: group.lastAt.toISOString(),
    events: group.events.map((event) => ({
      type: event.type,
      at: event.at.toISOString(),
      ...(event.channel ? { channel: event.channel } : {}),
      summary: activitySummary(event.entry, event.channel, text),
    })),
  };
}
