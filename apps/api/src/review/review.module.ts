import { Module } from '@nestjs/common';
import { AgentsController } from '../agents/agents.controller';
import { PolicyController } from '../policy/policy.controller';
import { ReviewController } from './review.controller';

/** Memory review (seed 002): the workspace policy, its agents and their memory, the admins' queue. */
@Module({ controllers: [PolicyController, AgentsController, ReviewController] })
export class ReviewModule {}
