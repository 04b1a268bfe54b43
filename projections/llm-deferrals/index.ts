import { readModel } from '../read-model';
import { LlmDeferral } from './llm-deferrals.entity';
import { LlmDeferrals1764400016101 } from './llm-deferrals.migration';
import { llmDeferralsProjection } from './llm-deferrals.projection';

export * from './llm-deferrals.entity';
export * from './llm-deferrals.projection';
export * from './llm-deferrals.query';

export const llmDeferralsReadModel = readModel({
  projection: llmDeferralsProjection,
  entity: LlmDeferral,
  migrations: [LlmDeferrals1764400016101],
});
