import {
  Global,
  Inject,
  Injectable,
  Module,
  type DynamicModule,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { TokenVerifier } from '@engram/auth';
import { KeyStore } from '@engram/crypto';
import { createDataSource } from '@engram/database';
import { systemClock } from '@engram/domain';
import { EventCodec, type EventStore } from '@engram/event-store';
import { createLlm } from '@engram/llm';
import { EngramMetrics } from '@engram/observability';
import { READ_MODEL_ENTITIES } from '@engram/projections';
import type { DataSource } from 'typeorm';
import { CODEC_RESOURCES, createCodec, type CodecResources } from './create-codec';
import { createEventStore } from './create-event-store';
import { MetricsSources } from './metrics-sources';
import type { Runtime } from './prepare-runtime';
import { APP_DATA_SOURCE, CLOCK, EVENT_STORE, LLM, RUNTIME } from './tokens';

@Injectable()
class InfrastructureShutdown implements OnApplicationShutdown {
  constructor(
    @Inject(RUNTIME) private readonly runtime: Runtime,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(APP_DATA_SOURCE) private readonly dataSource: DataSource,
    @Inject(CODEC_RESOURCES) private readonly codec: CodecResources,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    await this.store.close();
    await this.codec.close();
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
    // Last: the embedded PostgreSQL (a no-op with DATABASE_URL).
    await this.runtime.stop();
  }
}

/**
 * The shared infrastructure of the API: event store, codec (personal data encrypted at rest) and its
 * key store, read-model data source (API role), clock, token verifier, the application's metrics.
 */
@Global()
@Module({})
export class InfrastructureModule {
  static forRoot(runtime: Runtime): DynamicModule {
    return {
      module: InfrastructureModule,
      providers: [
        { provide: RUNTIME, useValue: runtime },
        { provide: CLOCK, useValue: runtime.clock ?? systemClock },
        { provide: EngramMetrics, useFactory: () => new EngramMetrics() },
        MetricsSources,
        {
          provide: EVENT_STORE,
          useFactory: (metrics: EngramMetrics) =>
            createEventStore(runtime, runtime.appUrl, 'engram-api', metrics.appends),
          inject: [EngramMetrics],
        },
        {
          provide: CODEC_RESOURCES,
          useFactory: () => createCodec(runtime, runtime.appUrl, 'engram-api'),
        },
        {
          provide: EventCodec,
          useFactory: (resources: CodecResources) => resources.codec,
          inject: [CODEC_RESOURCES],
        },
        {
          // The codec's own key store: erasure destroys keys through it, evicting them from its cache.
          provide: KeyStore,
          useFactory: (resources: CodecResources) => resources.keys,
          inject: [CODEC_RESOURCES],
        },
        {
          provide: APP_DATA_SOURCE,
          useFactory: () =>
            createDataSource(runtime.appUrl, READ_MODEL_ENTITIES, 10, 'engram-api').initialize(),
        },
        {
          provide: TokenVerifier,
          useFactory: () =>
            new TokenVerifier({
              secret: runtime.jwtSecret,
              jwksUrl: runtime.config.jwt.jwksUrl,
              issuer: runtime.config.jwt.issuer,
              audience: runtime.config.jwt.audience,
              maxAgeSeconds: runtime.config.jwt.maxAgeSeconds,
            }),
        },
        { provide: LLM, useFactory: () => createLlm(runtime.config.llm) },
        InfrastructureShutdown,
      ],
      exports: [
        RUNTIME,
        CLOCK,
        LLM,
        EVENT_STORE,
        EventCodec,
        KeyStore,
        CODEC_RESOURCES,
        APP_DATA_SOURCE,
        TokenVerifier,
        EngramMetrics,
      ],
    };
  }
}
