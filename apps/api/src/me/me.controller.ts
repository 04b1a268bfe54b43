import { Controller, Get, Inject } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiProperty, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, type Principal } from '@engram/auth';
import { runAs } from '@engram/database';
import { APP_DATA_SOURCE } from '@engram/platform';
import { findUserStreamStats } from '@engram/projections';
import type { DataSource } from 'typeorm';

export class MyStatsResponse {
  @ApiProperty() eventCount!: number;
  @ApiProperty() messageCount!: number;
  @ApiProperty({ nullable: true, format: 'date-time' }) firstEventAt!: string | null;
  @ApiProperty({ nullable: true, format: 'date-time' }) lastEventAt!: string | null;
  @ApiProperty({ description: 'Global position of the last event counted' }) lastPosition!: number;
}

@ApiTags('me')
@ApiBearerAuth()
@Controller('v1/me')
export class MeController {
  constructor(@Inject(APP_DATA_SOURCE) private readonly dataSource: DataSource) {}

  /** How many events Engram holds for the caller: read from a projection, under row-level security. */
  @Get('stats')
  @ApiOkResponse({ type: MyStatsResponse })
  async stats(@CurrentPrincipal() principal: Principal): Promise<MyStatsResponse> {
    const stats = await runAs(this.dataSource, principal, (manager) =>
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
