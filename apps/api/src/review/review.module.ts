import { Module } from '@nestjs/common';
import { PolicyController } from '../policy/policy.controller';
import { ReviewController } from './review.controller';

/** Memory review (seed 002): the workspace policy, per-agent memory, the admins' queue. */
@Module({ controllers: [PolicyController, ReviewController] })
export class ReviewModule {}
