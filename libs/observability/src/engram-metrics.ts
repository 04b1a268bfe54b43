import { Counter, Registry, contentType } from 'prom-client';
import { AppendMetrics } from './append-metrics';
import { HttpMetrics } from './http-metrics';
import { LlmMetrics } from './llm-metrics';
import { processMetricsRegistry } from './process-metrics';
import { ProjectionMetrics, type PositionSources } from './projection-metrics';
import { SchedulerBacklogMetrics, type SchedulerBacklog } from './scheduler-backlog-metrics';

/** The Content-Type of the Prometheus text exposition (format 0.0.4). */
export const PROMETHEUS_CONTENT_TYPE: string = contentType;

/** What the gauges read at scrape time. */
export type ScrapeSources = PositionSources &
  Readonly<{ schedulerBacklog: () => Promise<SchedulerBacklog> }>;

/**
 * The Prometheus metrics of one application, in a registry of its own (several applications in one
 * process, as in the tests, never share counters), rendered with the process's Node.js metrics.
 */
export class EngramMetrics {
  readonly registry = new Registry();
  readonly http = new HttpMetrics(this.registry);
  readonly appends = new AppendMetrics(this.registry);
  readonly llm = new LlmMetrics(this.registry);
  private readonly projections = new ProjectionMetrics(this.registry);
  private readonly backlog = new SchedulerBacklogMetrics(this.registry);
  private readonly sourceErrors = new Counter({
    name: 'engram_metrics_source_errors_total',
    help: 'Scrapes that could not read a source (store, checkpoints, scheduler work lists)',
    labelNames: ['source'],
    registers: [this.registry],
  });
  private sources: ScrapeSources | undefined;

  readonly contentType = PROMETHEUS_CONTENT_TYPE;

  readFrom(sources: ScrapeSources): void {
    this.sources = sources;
  }

  /** The Prometheus text exposition; a source that fails leaves its gauges out, never the scrape. */
  async render(): Promise<string> {
    const sources = this.sources;
    if (sources) {
      await Promise.all([
        this.projections.refresh(sources).catch(() => {
          this.projections.clear();
          this.sourceErrors.inc({ source: 'positions' });
        }),
        this.backlog.refresh(sources.schedulerBacklog).catch(() => {
          this.backlog.clear();
          this.sourceErrors.inc({ source: 'scheduler_backlog' });
        }),
      ]);
    }
    return Registry.merge([processMetricsRegistry(), this.registry]).metrics();
  }
}
