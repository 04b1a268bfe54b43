import { Module } from '@nestjs/common';
import { MyLlmUsageController } from './my-llm-usage.controller';
import { WorkspaceLlmUsageController } from './workspace-llm-usage.controller';

/** The LLM ledger: each user's own usage and budget, and the workspace's totals for its admins. */
@Module({ controllers: [MyLlmUsageController, WorkspaceLlmUsageController] })
export class LlmUsageModule {}
