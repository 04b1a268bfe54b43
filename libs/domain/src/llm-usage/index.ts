export * from './llm-usage-events';
export * from './llm-usage-day';
export * from './llm-ledger-decider';
