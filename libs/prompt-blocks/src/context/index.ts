export * from './headings';
export * from './tokenizer';
export * from './quote';
export * from './build-context';
