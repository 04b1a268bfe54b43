export * from './action-view';
export * from './sanitize';
export * from './labels';
export * from './target';
export * from './dates';
export * from './recent-actions';
export * from './recall-actions';
export * from './recall-actions-tool';
