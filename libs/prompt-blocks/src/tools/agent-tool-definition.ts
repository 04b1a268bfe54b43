import type { JsonSchemaObject } from './json-schema';

/** A tool as a model reads it: its name, what it does, and the JSON Schema of its arguments. */
export type AgentToolDefinition = Readonly<{
  name: string;
  description: string;
  inputSchema: JsonSchemaObject;
}>;
