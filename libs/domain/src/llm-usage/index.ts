export * from './llm-usage-events';
export * from './llm-usage-day';
