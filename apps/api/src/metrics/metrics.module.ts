import { Module } from '@nestjs/common';
import { MetricsController } from './metrics.controller';

/** GET /metrics, public like /health (the metrics hold counts, never personal data). */
@Module({ controllers: [MetricsController] })
export class MetricsModule {}
