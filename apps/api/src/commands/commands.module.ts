import { Global, Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { DecideHandler } from './decide.handler';
import { CommandGateway } from './command-gateway';

/** The CommandBus and its one generic handler, for every feature module. */
@Global()
@Module({
  imports: [CqrsModule.forRoot()],
  providers: [DecideHandler, CommandGateway],
  exports: [CommandGateway],
})
export class CommandsModule {}
