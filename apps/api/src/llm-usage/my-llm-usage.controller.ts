import { Controller, Get, Inject, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, type Principal } from '@engram/auth';
import { llmUsageDay, nextUsageDayStart, usageWindowStart, type Clock } from '@engram/domain';
import { CLOCK } from '@engram/platform';
import {
  countBudgetedCalls,
  findLlmDeferrals,
  findLlmUsageSince,
  findMemoryPolicy,
  llmDeferralsProjection,
  llmUsageProjection,
  workspacePoliciesProjection,
} from '@engram/projections';
import { ReadModels } from '../read-models/read-models';
import { MyLlmUsageQuery, MyLlmUsageResponse } from './llm-usage.dto';

const READS = [
  llmUsageProjection.name,
  llmDeferralsProjection.name,
  workspacePoliciesProjection.name,
];

/** The caller's own LLM ledger: what their memory cost, and what waits for tomorrow's budget. */
@ApiTags('me')
@ApiBearerAuth()
@Controller('v1/me/llm-usage')
export class MyLlmUsageController {
  constructor(
    private readonly readModels: ReadModels,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get()
  @ApiOkResponse({ type: MyLlmUsageResponse })
  async usage(
    @CurrentPrincipal() me: Principal,
    @Query() query: MyLlmUsageQuery,
  ): Promise<MyLlmUsageResponse> {
    await this.readModels.catchUp(me, READS, query);
    const days = query.days ?? 30;
    const now = this.clock.now();
    const { workspaceId, userId } = me;
    return this.readModels.read(me, async (manager) => {
      const policy = await findMemoryPolicy(manager, workspaceId);
      const from = usageWindowStart(now, policy.timeZone, days);
      const [rows, deferrals] = await Promise.all([
        findLlmUsageSince(manager, workspaceId, userId, from),
        findLlmDeferrals(manager, workspaceId, userId),
      ]);
      const limit = policy.llmCallsPerUserPerDay;
      return {
        days,
        from,
        timeZone: policy.timeZone,
        items: rows.map((row) => ({
          day: row.day,
          purpose: row.purpose,
          calls: row.calls,
          failures: row.failures,
          promptTokens: Number(row.promptTokens),
          completionTokens: Number(row.completionTokens),
          latencyMs: Number(row.latencyMs),
          deferred: row.deferred,
          engines: row.engines,
        })),
        budget:
          limit === undefined
            ? null
            : {
                limit,
                usedToday: await countBudgetedCalls(
                  manager,
                  workspaceId,
                  userId,
                  llmUsageDay(now, policy.timeZone),
                ),
                resetsAt: nextUsageDayStart(now, policy.timeZone),
              },
        deferred: deferrals.map((row) => ({
          purpose: row.purpose,
          cause: row.cause,
          deferredAt: row.deferredAt.toISOString(),
          until: row.until.toISOString(),
        })),
      };
    });
  }
}
