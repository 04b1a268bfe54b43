import fc from 'fast-check';
import { jsonBody as json, type Body } from './api-client';
import type { Operation } from './openapi-operations';
import { NON_JSON_BODIES, hugeValue, junkQueryValue, junkValue } from './junk';
import { PATH_PARAMETERS, QUERY_PARAMETERS, type Fixtures, type Strategy } from './strategies';

export type Auth = 'right' | 'wrong-role' | 'other-workspace' | 'garbage' | 'none';

/** One generated request: who calls, the concrete path and query, and the body as sent. */
export type RequestCase = Readonly<{ auth: Auth; path: string; query: string; body: Body }>;

/** Path tricks sent without percent-encoding: other routes, bad escapes, dot segments. */
const RAW_PATH_VALUES = ['a/b', '..', '.', '%zz', '%2F', '%00', '%', 'a%2Fb', '%ED%A0%80'] as const;

/** Percent-encodes any string; a lone surrogate (not encodable) becomes U+FFFD. */
export const encode = (value: string) =>
  encodeURIComponent(
    value.replace(
      /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g,
      '\uFFFD',
    ),
  );

const UNKNOWN_FIELDS = ['isAdmin', 'workspaceId', 'userId', 'position', '__proto__', 'constructor'];

/** A plausible body, then broken in every way a client can break it. */
function brokenBodies(valid: fc.Arbitrary<Record<string, unknown>>): fc.Arbitrary<Body> {
  const mutated = valid.chain((body) => {
    const fields = Object.keys(body).length > 0 ? Object.keys(body) : ['field'];
    const without = (field: string) =>
      Object.fromEntries(Object.entries(body).filter(([key]) => key !== field));
    return fc.oneof(
      { weight: 4, arbitrary: fc.constant(body) },
      {
        weight: 1,
        arbitrary: fc
          .tuple(fc.constantFrom(...UNKNOWN_FIELDS), junkValue())
          .map(([field, value]) => ({ ...body, [field]: value })),
      },
      { weight: 1, arbitrary: fc.constantFrom(...fields).map(without) },
      {
        weight: 3,
        arbitrary: fc
          .tuple(fc.constantFrom(...fields), junkValue())
          .map(([field, value]) => ({ ...body, [field]: value })),
      },
      {
        weight: 2,
        arbitrary: fc
          .tuple(fc.constantFrom(...fields), hugeValue())
          .map(([field, value]) => ({ ...body, [field]: value })),
      },
    );
  });
  return fc.oneof(
    { weight: 8, arbitrary: mutated.map(json) },
    { weight: 1, arbitrary: junkValue().map(json) },
    { weight: 1, arbitrary: otherBodies() },
  );
}

/** Not a JSON object: broken JSON, other content types, nothing at all. */
function otherBodies(): fc.Arbitrary<Body> {
  return fc.oneof(
    fc
      .constantFrom(...NON_JSON_BODIES)
      .map((text) => ({ kind: 'raw' as const, contentType: 'application/json', text })),
    fc.constantFrom(
      { kind: 'raw' as const, contentType: 'text/plain', text: 'hello' },
      {
        kind: 'raw' as const,
        contentType: 'application/x-www-form-urlencoded',
        text: 'a=1&b[c]=2',
      },
      { kind: 'raw' as const, contentType: 'application/xml', text: '<a>1</a>' },
      { kind: 'none' as const },
    ),
  );
}

function bodyOf(strategy: Strategy, fixtures: Fixtures): fc.Arbitrary<Body> {
  if (strategy.body) return brokenBodies(strategy.body(fixtures));
  return fc.oneof(
    { weight: 6, arbitrary: fc.constant<Body>({ kind: 'none' }) },
    { weight: 1, arbitrary: junkValue().map(json) },
    { weight: 1, arbitrary: otherBodies() },
  );
}

function pathOf(operation: Operation, strategy: Strategy, fixtures: Fixtures) {
  const values = operation.pathParameters.map((name) => {
    const plausible = (strategy.path?.[name] ?? PATH_PARAMETERS[name])!(fixtures);
    return fc.oneof(
      { weight: 12, arbitrary: plausible.map(encode) },
      { weight: 1, arbitrary: fc.constantFrom(...RAW_PATH_VALUES) },
    );
  });
  return fc
    .tuple(...values)
    .map((encoded) =>
      operation.pathParameters.reduce(
        (path, name, index) => path.replace(`{${name}}`, encoded[index]!),
        operation.path,
      ),
    );
}

function queryOf(operation: Operation): fc.Arbitrary<string> {
  const pairs = operation.queryParameters.map((name) =>
    fc.oneof(
      { weight: 3, arbitrary: fc.constant<string[]>([]) },
      {
        weight: 3,
        arbitrary: QUERY_PARAMETERS[name]!.map((value) => [`${name}=${encode(value)}`]),
      },
      { weight: 4, arbitrary: junkQueryValue().map((value) => [`${name}=${encode(value)}`]) },
      // A repeated parameter arrives as an array, a bracketed one as an object.
      { weight: 1, arbitrary: fc.constant([`${name}=1`, `${name}=2`]) },
      { weight: 1, arbitrary: fc.constant([`${name}[$gt]=`]) },
      { weight: 1, arbitrary: fc.constant([`${name}=%ED%A0%80`, `${name}=%zz`]) },
    ),
  );
  const unknown = fc.oneof(
    { weight: 8, arbitrary: fc.constant<string[]>([]) },
    { weight: 1, arbitrary: fc.constant(['unknown=1']) },
  );
  return fc.tuple(unknown, ...pairs).map((lists) => lists.flat().join('&'));
}

/** Every request the properties send to one operation. */
export function requestCases(
  operation: Operation,
  strategy: Strategy,
  fixtures: Fixtures,
): fc.Arbitrary<RequestCase> {
  return fc.record({
    auth: fc.oneof(
      { weight: 12, arbitrary: fc.constant<Auth>('right') },
      {
        weight: 1,
        arbitrary: fc.constantFrom<Auth>('wrong-role', 'other-workspace', 'garbage', 'none'),
      },
    ),
    path: pathOf(operation, strategy, fixtures),
    query: queryOf(operation),
    body: bodyOf(strategy, fixtures),
  });
}

/** The path parameters and query parameters no strategy knows how to draw. */
export function missingStrategies(operation: Operation, strategy: Strategy): string[] {
  return [
    ...operation.pathParameters
      .filter((name) => !strategy.path?.[name] && !PATH_PARAMETERS[name])
      .map((name) => `path parameter ${name}`),
    ...operation.queryParameters
      .filter((name) => !QUERY_PARAMETERS[name])
      .map((name) => `query parameter ${name}`),
  ];
}
