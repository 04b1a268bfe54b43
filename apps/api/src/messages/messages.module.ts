import { Module } from '@nestjs/common';
import { MessagesController } from './messages.controller';
import { MySessionsController } from './my-sessions.controller';

/** The conversation: messages recorded by agents, a user's sessions. */
@Module({ controllers: [MessagesController, MySessionsController] })
export class MessagesModule {}
