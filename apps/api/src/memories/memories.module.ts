import { Module } from '@nestjs/common';
import { IdentityCardController } from './identity-card.controller';
import { MyMemoriesController } from './my-memories.controller';
import { ReviewController } from './review.controller';
import { UserMemories } from './user-memories';

/**
 * The narrative memory: a user's own memories (read, delete, wipe, review in mode user), the admins'
 * review queue, and the identity card drawn from them.
 */
@Module({
  controllers: [MyMemoriesController, ReviewController, IdentityCardController],
  providers: [UserMemories],
  exports: [UserMemories],
})
export class MemoriesModule {}
