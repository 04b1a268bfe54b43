import { readModel } from '../read-model';
import { LlmUsage } from './llm-usage.entity';
import { LlmUsage1764400016100 } from './llm-usage.migration';
import { llmUsageProjection } from './llm-usage.projection';

export * from './llm-usage.entity';
export * from './llm-usage.projection';
export * from './llm-usage.query';

export const llmUsageReadModel = readModel({
  projection: llmUsageProjection,
  entity: LlmUsage,
  migrations: [LlmUsage1764400016100],
});
