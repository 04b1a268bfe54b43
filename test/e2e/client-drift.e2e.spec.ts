import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import request from 'supertest';
import {
  generateApiTypes,
  type OpenApiDocument,
} from '../../packages/client/scripts/generate-api-types';
import { ROUTES } from '../../packages/client/src/routes';
import { expectGolden } from '../support/golden-file';
import { startTestApp, type TestApp } from '../support/test-app';

const GENERATED = join(__dirname, '../../packages/client/src/generated');

/**
 * @engram/client's types are generated from the document the API serves: this fails when the
 * committed ones differ (`UPDATE_GOLDEN=1` rewrites them; review the diff), or when the client calls
 * an operation the API does not have.
 */
describe('@engram/client against the OpenAPI document', () => {
  let t: TestApp;
  let document: OpenApiDocument;

  beforeAll(async () => {
    t = await startTestApp();
    document = (await request(t.http).get('/docs/openapi.json').expect(200))
      .body as OpenApiDocument;
  });
  afterAll(() => t.close());

  it('has the types generated from the document the API serves', () => {
    const path = join(GENERATED, 'api-types.ts');
    // Formatted as the repository's files are (prettier in its own process: jest cannot load its ESM parts).
    const text = execFileSync(
      process.execPath,
      [require.resolve('prettier/bin/prettier.cjs'), '--stdin-filepath', path],
      { input: generateApiTypes(document), encoding: 'utf8' },
    );
    expectGolden(GENERATED, 'api-types.ts', text.trimEnd());
  });

  it('calls only operations the document has', () => {
    const missing = Object.entries(ROUTES)
      .filter(([, route]) => document.paths[route.path]?.[route.method] === undefined)
      .map(([name, route]) => `${name}: ${route.method.toUpperCase()} ${route.path}`);
    expect(missing).toEqual([]);
  });
});
