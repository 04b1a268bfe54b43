import { Controller, Get, Header } from '@nestjs/common';
import { ApiOkResponse, ApiProduces, ApiTags } from '@nestjs/swagger';
import { Public } from '@engram/auth';
import { EngramMetrics, PROMETHEUS_CONTENT_TYPE } from '@engram/observability';

@ApiTags('operations')
@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: EngramMetrics) {}

  @Get()
  @Public()
  @Header('Content-Type', PROMETHEUS_CONTENT_TYPE)
  @ApiProduces('text/plain')
  @ApiOkResponse({
    description:
      'Prometheus text exposition: HTTP latency, appends, projection lag, scheduler backlog, LLM ' +
      'usage (metric names in ARCHITECTURE.md, "Operability")',
    schema: { type: 'string' },
  })
  scrape(): Promise<string> {
    return this.metrics.render();
  }
}
