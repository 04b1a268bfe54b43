import request from 'supertest';
import { startTestApp, type TestApp } from '../support/test-app';

type Operation = {
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
};

/** Clients are generated from the OpenAPI document: every operation says what its success returns. */
describe('the OpenAPI document', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('gives every operation a 2xx response with a schema (or a declared non-JSON body)', async () => {
    const document = (await request(t.http).get('/docs/openapi.json').expect(200)).body as {
      paths: Record<string, Record<string, Operation>>;
    };
    const missing: string[] = [];
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const success = Object.entries(operation.responses ?? {}).filter(([status]) =>
          status.startsWith('2'),
        );
        const described = success.some(
          ([status, response]) =>
            status === '204' ||
            Object.values(response.content ?? {}).some((media) => media.schema !== undefined),
        );
        if (!described) missing.push(`${method.toUpperCase()} ${path}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
