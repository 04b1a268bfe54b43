/** A JSON Schema property, as far as tool arguments need one. */
export type JsonSchema = Readonly<Record<string, unknown>>;

/** The arguments of a tool: an object schema, what OpenAI, Anthropic and MCP all take. */
export type JsonSchemaObject = Readonly<{
  type: 'object';
  properties: Readonly<Record<string, JsonSchema>>;
  required?: readonly string[];
  additionalProperties: false;
}>;
