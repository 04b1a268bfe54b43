import { Registry, collectDefaultMetrics } from 'prom-client';

let processRegistry: Registry | undefined;

/**
 * The Node.js process metrics (CPU, memory, event loop, GC), collected once per process however many
 * applications it hosts (the tests start several): each collection adds its own observers.
 */
export function processMetricsRegistry(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}
