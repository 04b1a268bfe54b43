import { Controller, Get, Inject, Param, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, Roles, type Principal } from '@engram/auth';
import { usageWindowStart, type Clock } from '@engram/domain';
import { CLOCK } from '@engram/platform';
import {
  findMemoryPolicy,
  findWorkspaceLlmTotals,
  findWorkspaceLlmUsage,
  llmUsageProjection,
  workspacePoliciesProjection,
  type UserPurposeUsage,
} from '@engram/projections';
import { IdentifierParam } from '../http/path-params';
import { EVERY_OWNER, ReadModels } from '../read-models/read-models';
import { decodeUserCursor, encodeUserCursor } from './llm-usage-cursor';
import { summarizeUsage } from './llm-usage-summary';
import { WorkspaceLlmUsageQuery, WorkspaceLlmUsageResponse } from './llm-usage.dto';

/**
 * What the workspace's users cost in LLM calls, per user and purpose, for its admins. Counts only:
 * the ledger holds no content, which is why its admin policy lets them read every user's rows.
 */
@ApiTags('admin')
@ApiBearerAuth()
@Roles('admin')
@Controller('v1/workspaces/:ws/llm-usage')
export class WorkspaceLlmUsageController {
  constructor(
    private readonly readModels: ReadModels,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get()
  @ApiOkResponse({ type: WorkspaceLlmUsageResponse })
  async usage(
    @Param('ws', new IdentifierParam('ws')) workspaceId: string,
    @CurrentPrincipal() me: Principal,
    @Query() query: WorkspaceLlmUsageQuery,
  ): Promise<WorkspaceLlmUsageResponse> {
    const afterUserId = query.cursor === undefined ? undefined : decodeUserCursor(query.cursor);
    await this.readModels.catchUp(
      EVERY_OWNER,
      [llmUsageProjection.name, workspacePoliciesProjection.name],
      query,
    );
    const days = query.days ?? 30;
    const limit = query.limit ?? 20;
    const now = this.clock.now();
    return this.readModels.read(me, async (manager) => {
      const policy = await findMemoryPolicy(manager, workspaceId);
      const from = usageWindowStart(now, policy.timeZone, days);
      const [rows, totals] = await Promise.all([
        findWorkspaceLlmUsage(manager, workspaceId, from, { afterUserId, limit: limit + 1 }),
        findWorkspaceLlmTotals(manager, workspaceId, from),
      ]);
      const users = [...groupByUser(rows)];
      const page = users.slice(0, limit);
      const last = page.at(-1);
      return {
        days,
        from,
        timeZone: policy.timeZone,
        totals: summarizeUsage(totals),
        items: page.map(([userId, usage]) => ({ userId, ...summarizeUsage(usage) })),
        nextCursor: users.length > limit && last ? encodeUserCursor(last[0]) : null,
      };
    });
  }
}

function groupByUser(rows: readonly UserPurposeUsage[]): Map<string, UserPurposeUsage[]> {
  const users = new Map<string, UserPurposeUsage[]>();
  for (const row of rows) users.set(row.userId, [...(users.get(row.userId) ?? []), row]);
  return users;
}
