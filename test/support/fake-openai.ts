// The scripted OpenAI-compatible endpoint lives with the benchmarks, which use it too.
export * from '../../bench/support/fake-openai';
