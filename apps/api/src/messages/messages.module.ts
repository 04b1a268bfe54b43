import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { MessagesController } from './messages.controller';
import { RecordMessageHandler } from './record-message.handler';

@Module({
  imports: [CqrsModule],
  controllers: [MessagesController],
  providers: [RecordMessageHandler],
})
export class MessagesModule {}
