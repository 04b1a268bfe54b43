import { Module, type DynamicModule } from '@nestjs/common';
import { InfrastructureModule, BackgroundWorker, type Runtime } from '@engram/platform';

@Module({})
export class WorkerModule {
  static forRuntime(runtime: Runtime): DynamicModule {
    return {
      module: WorkerModule,
      imports: [InfrastructureModule.forRoot(runtime)],
      providers: [BackgroundWorker],
    };
  }
}
