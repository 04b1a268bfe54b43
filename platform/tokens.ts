/** Injection tokens of the infrastructure every app shares. */
export const RUNTIME = Symbol('Runtime');
export const EVENT_STORE = Symbol('EventStore');
export const APP_DATA_SOURCE = Symbol('AppDataSource');
export const PROJECTOR_DATA_SOURCE = Symbol('ProjectorDataSource');
export const CLOCK = Symbol('Clock');
export const LLM = Symbol('Llm');
