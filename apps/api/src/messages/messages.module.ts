import { Module } from '@nestjs/common';
import { MessageRecorder } from './message-recorder';
import { MessagesController } from './messages.controller';
import { MySessionsController } from './my-sessions.controller';

/** The conversation: messages recorded by agents, a user's sessions. */
@Module({
  controllers: [MessagesController, MySessionsController],
  providers: [MessageRecorder],
  exports: [MessageRecorder],
})
export class MessagesModule {}
