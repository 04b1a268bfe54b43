import { Body, Controller, Get, Headers, Inject, Put, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, type Principal } from '@engram/auth';
import { memoryProfileDecider, userMemoryStatus, userStream, type Clock } from '@engram/domain';
import { CLOCK } from '@engram/platform';
import { findMemorySettings, memorySettingsProjection } from '@engram/projections';
import { Commands } from '../commands/commands';
import { positionToJson } from '../http/position';
import { correlationIdOf, type Headers as RequestHeaders } from '../http/request-context';
import { ReadModels } from '../read-models/read-models';
import { ReadQuery } from '../read-models/read-query';
import { MemorySettingsBody, MemorySettingsResponse } from './memory-settings.dto';

/** The caller's memory switch and pause. */
@ApiTags('me')
@ApiBearerAuth()
@Controller('v1/me/memory-settings')
export class MemorySettingsController {
  constructor(
    private readonly readModels: ReadModels,
    private readonly commands: Commands,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get()
  @ApiOkResponse({ type: MemorySettingsResponse })
  async get(
    @CurrentPrincipal() me: Principal,
    @Query() query: ReadQuery,
  ): Promise<MemorySettingsResponse> {
    await this.readModels.catchUp(me, [memorySettingsProjection.name], query);
    const row = await this.readModels.read(me, (manager) =>
      findMemorySettings(manager, me.workspaceId, me.userId),
    );
    return this.describe(row?.enabled ?? true, row?.pausedUntil?.toISOString() ?? null);
  }

  @Put()
  @ApiOkResponse({ type: MemorySettingsResponse })
  async put(
    @CurrentPrincipal() me: Principal,
    @Body() body: MemorySettingsBody,
    @Headers() headers: RequestHeaders,
  ): Promise<MemorySettingsResponse> {
    const pausedUntil = body.pausedUntil ? new Date(body.pausedUntil).toISOString() : null;
    const result = await this.commands.decide(
      userStream(me.workspaceId, me.userId, 'profile', 'memory'),
      memoryProfileDecider,
      { type: 'ChangeMemorySettings', data: { enabled: body.enabled, pausedUntil } },
      { workspaceId: me.workspaceId, userId: me.userId, correlationId: correlationIdOf(headers) },
    );
    return {
      ...this.describe(result.state.enabled, result.state.pausedUntil),
      position: positionToJson(result.position),
    };
  }

  private describe(enabled: boolean, pausedUntil: string | null): MemorySettingsResponse {
    const status = userMemoryStatus({ enabled, pausedUntil }, this.clock.now().toUTC().toISO()!);
    return { enabled, pausedUntil, status };
  }
}
