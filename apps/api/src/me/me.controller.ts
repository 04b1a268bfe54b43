import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiProperty, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, type Principal } from '@engram/auth';
import { findUserStreamStats, userStreamStatsProjection } from '@engram/projections';
import { ReadModels } from '../read-models/read-models';
import { ReadQuery } from '../read-models/read-query';

export class MyStatsResponse {
  @ApiProperty() eventCount!: number;
  @ApiProperty() messageCount!: number;
  @ApiProperty({ type: String, nullable: true, format: 'date-time' }) firstEventAt!: string | null;
  @ApiProperty({ type: String, nullable: true, format: 'date-time' }) lastEventAt!: string | null;
  @ApiProperty({ description: 'Global position of the last event counted' }) lastPosition!: number;
}

@ApiTags('me')
@ApiBearerAuth()
@Controller('v1/me')
export class MeController {
  constructor(private readonly readModels: ReadModels) {}

  /** How many events Engram holds for the caller: read from a projection, under row-level security. */
  @Get('stats')
  @ApiOkResponse({ type: MyStatsResponse })
  async stats(
    @CurrentPrincipal() principal: Principal,
    @Query() query: ReadQuery,
  ): Promise<MyStatsResponse> {
    await this.readModels.catchUp(principal, [userStreamStatsProjection.name], query);
    const stats = await this.readModels.read(principal, (manager) =>
      findUserStreamStats(manager, principal.workspaceId, principal.userId),
    );
    return {
      eventCount: stats?.eventCount ?? 0,
      messageCount: stats?.messageCount ?? 0,
      firstEventAt: stats?.firstEventAt.toISOString() ?? null,
      lastEventAt: stats?.lastEventAt.toISOString() ?? null,
      lastPosition: Number(stats?.lastPosition ?? 0),
    };
  }
}
