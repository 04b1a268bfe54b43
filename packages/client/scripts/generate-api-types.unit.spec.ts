import { generateApiTypes, type OpenApiDocument, type OpenApiSchema } from './generate-api-types';

const json = (schema: OpenApiSchema) => ({ content: { 'application/json': { schema } } });

describe('generateApiTypes', () => {
  it('turns schemas and operations into types', () => {
    const document: OpenApiDocument = {
      components: {
        schemas: {
          Body: {
            type: 'object',
            properties: {
              role: { type: 'string', enum: ['user', 'assistant'] },
              at: { type: 'string', format: 'date-time', nullable: true, description: 'When' },
              tags: { type: 'array', items: { type: 'string' } },
              input: { type: 'object', additionalProperties: true },
            },
            required: ['role'],
          },
          Answer: {
            type: 'object',
            properties: {
              body: {
                nullable: true,
                type: 'object',
                allOf: [{ $ref: '#/components/schemas/Body' }],
              },
              either: { oneOf: [{ type: 'number' }, { $ref: '#/components/schemas/Body' }] },
            },
            required: ['body'],
          },
        },
      },
      paths: {
        '/v1/things/{id}': {
          post: {
            operationId: 'Things_post',
            parameters: [
              { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
              { name: 'limit', in: 'query', required: false, schema: { type: 'number' } },
            ],
            requestBody: { required: true, ...json({ $ref: '#/components/schemas/Body' }) },
            responses: { '409': {}, '201': json({ $ref: '#/components/schemas/Answer' }) },
          },
          delete: { responses: { '204': {} } },
        },
      },
    };
    const text = generateApiTypes(document);
    expect(text).toContain(`export type Body = {
  role: "user" | "assistant";
  /** When */
  at?: string | null;
  tags?: Array<string>;
  input?: {
    [key: string]: unknown;
  };
};`);
    expect(text).toContain('  body: Body | null;');
    expect(text).toContain('  either?: (number) | (Body);');
    expect(text).toContain(`    post: {
      operationId: "Things_post";
      path: { id: string; };
      query: { limit?: number; };
      headers: Record<string, never>;
      body: Body;
      status: 201;
      response: Answer;
    };`);
    expect(text).toContain('      status: 204;\n      response: undefined;');
  });

  it.each([
    ['an unknown keyword', { type: 'string', const: 'x' }, 'the keyword "const" is not handled'],
    ['a reference to nothing', { $ref: '#/components/schemas/Nope' }, 'names no schema'],
    ['a Date typed as an object', { type: 'object', format: 'date-time' }, 'date-time'],
    ['an array without items', { type: 'array' }, 'an array without items'],
  ])('fails loudly on %s, naming where', (_, schema, why) => {
    expect(() =>
      generateApiTypes({ components: { schemas: { Thing: schema } }, paths: {} }),
    ).toThrow(new RegExp(`components\\.schemas\\.Thing: .*${why}`));
  });
});
