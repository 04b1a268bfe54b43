/**
 * Turns the API's OpenAPI document (`GET /docs/openapi.json`) into the TypeScript types of
 * `@engram/client` (src/generated/api-types.ts): one type per `components.schemas` entry and a
 * `Paths` map giving each operation's path and query parameters, body and success response.
 *
 * Only what @nestjs/swagger emits is understood (objects, arrays, enums, $ref, nullable, allOf, oneOf,
 * anyOf); anything else throws with the place it was found, so a new construct cannot slip through as
 * a wrong type. test/e2e/client-drift.e2e.spec.ts runs it against the served document.
 */

export type OpenApiSchema = { readonly [keyword: string]: unknown };

export type OpenApiDocument = {
  readonly paths: Readonly<Record<string, Readonly<Record<string, OpenApiOperation>>>>;
  readonly components?: { readonly schemas?: Readonly<Record<string, OpenApiSchema>> };
};

type OpenApiParameter = {
  readonly name: string;
  readonly in: string;
  readonly required?: boolean;
  readonly description?: string;
  readonly schema?: OpenApiSchema;
};

type OpenApiOperation = {
  readonly operationId?: string;
  readonly parameters?: readonly OpenApiParameter[];
  readonly requestBody?: {
    readonly required?: boolean;
    readonly content?: Readonly<Record<string, { schema?: OpenApiSchema }>>;
  };
  readonly responses?: Readonly<
    Record<string, { content?: Readonly<Record<string, { schema?: OpenApiSchema }>> }>
  >;
};

/** Keywords that say nothing about the shape of a value (validation and documentation only). */
const ANNOTATIONS = new Set([
  'description',
  'example',
  'examples',
  'default',
  'title',
  'deprecated',
  'pattern',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minItems',
  'maxItems',
  'uniqueItems',
  'readOnly',
  'writeOnly',
  'format',
]);
const SHAPE = new Set([
  'type',
  'properties',
  'required',
  'items',
  'additionalProperties',
  'enum',
  '$ref',
  'nullable',
  'allOf',
  'oneOf',
  'anyOf',
]);
const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;
const REF_PREFIX = '#/components/schemas/';

export function generateApiTypes(document: OpenApiDocument): string {
  const schemas = document.components?.schemas ?? {};
  const known = new Set(Object.keys(schemas));
  const render = (schema: OpenApiSchema, at: string, indent: string): string =>
    renderSchema(schema, at, indent, known);
  const out: string[] = [
    '/**',
    " * Generated from the API's OpenAPI document by packages/client/scripts/generate-api-types.ts: do not",
    ' * edit. `UPDATE_GOLDEN=1 npx jest test/e2e/client-drift.e2e.spec.ts` regenerates it; the same test',
    ' * fails when it differs from what the API serves.',
    ' */',
    '',
  ];
  for (const [name, schema] of Object.entries(schemas)) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
      fail(`components.schemas.${name}`, 'not a TypeScript name');
    out.push(
      ...doc(schema, ''),
      `export type ${name} = ${render(schema, `components.schemas.${name}`, '')};`,
      '',
    );
  }
  out.push('/** Every operation of the API by path and method. */', 'export interface Paths {');
  for (const [path, operations] of Object.entries(document.paths)) {
    out.push(`  ${JSON.stringify(path)}: {`);
    for (const [method, operation] of Object.entries(operations)) {
      if (method === 'parameters') fail(`paths.${path}`, 'path-level parameters are not handled');
      if (!(METHODS as readonly string[]).includes(method))
        fail(`paths.${path}.${method}`, 'unknown method');
      out.push(...renderOperation(path, method, operation, render));
    }
    out.push('  };');
  }
  out.push('}', '');
  return out.join('\n');
}

function renderOperation(
  path: string,
  method: string,
  operation: OpenApiOperation,
  render: (schema: OpenApiSchema, at: string, indent: string) => string,
): string[] {
  const at = `paths.${path}.${method}`;
  const inPath: string[] = [];
  const inQuery: string[] = [];
  const inHeader: string[] = [];
  for (const parameter of operation.parameters ?? []) {
    const type = render(parameter.schema ?? {}, `${at}.parameters.${parameter.name}`, '      ');
    const line = `${property(parameter.name)}${parameter.required ? '' : '?'}: ${type};`;
    if (parameter.in === 'path') inPath.push(line);
    else if (parameter.in === 'query') inQuery.push(line);
    else if (parameter.in === 'header') inHeader.push(line);
    else
      fail(`${at}.parameters.${parameter.name}`, `parameters in ${parameter.in} are not handled`);
  }
  const body = requestBody(operation, at, render);
  const [status, response] = successResponse(operation, at, render);
  return [
    `    ${method}: {`,
    `      operationId: ${JSON.stringify(operation.operationId ?? `${method} ${path}`)};`,
    `      path: ${fields(inPath)};`,
    `      query: ${fields(inQuery)};`,
    `      headers: ${fields(inHeader)};`,
    `      body: ${body};`,
    `      status: ${status};`,
    `      response: ${response};`,
    '    };',
  ];
}

function requestBody(
  operation: OpenApiOperation,
  at: string,
  render: (schema: OpenApiSchema, at: string, indent: string) => string,
): string {
  const content = operation.requestBody?.content;
  if (content === undefined) return 'undefined';
  const json = content['application/json']?.schema;
  const media = Object.keys(content);
  if (json === undefined || media.length !== 1)
    fail(`${at}.requestBody`, `bodies of ${media.join(', ')} are not handled`);
  const type = render(json, `${at}.requestBody`, '      ');
  return operation.requestBody?.required ? type : `${type} | undefined`;
}

/** The first 2xx answer: its status and its body's type (`string` for a non-JSON body, `undefined` when none). */
function successResponse(
  operation: OpenApiOperation,
  at: string,
  render: (schema: OpenApiSchema, at: string, indent: string) => string,
): [number, string] {
  const success = Object.entries(operation.responses ?? {})
    .filter(([status]) => /^2\d\d$/.test(status))
    .sort(([a], [b]) => Number(a) - Number(b))[0];
  if (success === undefined) fail(`${at}.responses`, 'no 2xx response');
  const [status, response] = success;
  const content = response.content ?? {};
  const json = content['application/json']?.schema;
  if (json !== undefined)
    return [Number(status), render(json, `${at}.responses.${status}`, '      ')];
  const other = Object.values(content)[0]?.schema;
  if (other === undefined) return [Number(status), 'undefined'];
  if (other.type !== 'string')
    fail(`${at}.responses.${status}`, 'a non-JSON body that is not a string');
  return [Number(status), 'string'];
}

function renderSchema(
  schema: OpenApiSchema,
  at: string,
  indent: string,
  known: ReadonlySet<string>,
): string {
  for (const keyword of Object.keys(schema)) {
    if (!ANNOTATIONS.has(keyword) && !SHAPE.has(keyword))
      fail(at, `the keyword "${keyword}" is not handled`);
  }
  const type = bareType(schema, at, indent, known);
  return schema.nullable === true && type !== 'unknown' ? `${type} | null` : type;
}

function bareType(
  schema: OpenApiSchema,
  at: string,
  indent: string,
  known: ReadonlySet<string>,
): string {
  const nested = (child: OpenApiSchema, where: string, deeper = indent): string =>
    renderSchema(child, `${at}.${where}`, deeper, known);
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.startsWith(REF_PREFIX) ? schema.$ref.slice(REF_PREFIX.length) : '';
    if (!known.has(name)) fail(at, `$ref ${schema.$ref} names no schema of components.schemas`);
    return name;
  }
  for (const combinator of ['allOf', 'oneOf', 'anyOf'] as const) {
    const parts = schema[combinator];
    if (parts === undefined) continue;
    if (!Array.isArray(parts) || parts.length === 0)
      fail(at, `${combinator} must be a non-empty list`);
    const types = (parts as OpenApiSchema[]).map((part, index) =>
      nested(part, `${combinator}[${index}]`),
    );
    const joined =
      types.length === 1
        ? types[0]!
        : types.map((t) => `(${t})`).join(combinator === 'allOf' ? ' & ' : ' | ');
    // @nestjs/swagger writes a nullable reference as { nullable, type: 'object', allOf: [$ref] }.
    if (schema.properties !== undefined || schema.items !== undefined)
      fail(at, `${combinator} beside properties or items`);
    return joined;
  }
  if (schema.enum !== undefined) {
    if (!Array.isArray(schema.enum) || schema.enum.length === 0)
      fail(at, 'enum must be a non-empty list');
    return (schema.enum as unknown[])
      .map((value) => {
        if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean')
          fail(at, `enum value ${JSON.stringify(value)} is not a string, number or boolean`);
        return JSON.stringify(value);
      })
      .join(' | ');
  }
  if (schema.format === 'date-time' && schema.type !== 'string') {
    fail(
      at,
      'a date-time that is not typed as a string (a Date property needs `type: String` in its decorator)',
    );
  }
  switch (schema.type) {
    case undefined:
      if (schema.properties !== undefined || schema.items !== undefined)
        fail(at, 'properties or items without a type');
      return 'unknown';
    case 'string':
      return 'string';
    case 'number':
    case 'integer':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'array':
      if (schema.items === undefined) fail(at, 'an array without items');
      return `Array<${nested(schema.items as OpenApiSchema, 'items')}>`;
    case 'object':
      return objectType(schema, at, indent, known);
    default:
      return fail(at, `the type ${JSON.stringify(schema.type)} is not handled`);
  }
}

function objectType(
  schema: OpenApiSchema,
  at: string,
  indent: string,
  known: ReadonlySet<string>,
): string {
  const properties = (schema.properties ?? {}) as Readonly<Record<string, OpenApiSchema>>;
  const required = new Set((schema.required ?? []) as string[]);
  for (const name of required)
    if (!(name in properties)) fail(at, `required "${name}" is not a property`);
  const inner = `${indent}  `;
  const lines: string[] = [];
  for (const [name, property_] of Object.entries(properties)) {
    lines.push(...doc(property_, inner));
    const type = renderSchema(property_, `${at}.properties.${name}`, inner, known);
    lines.push(`${inner}${property(name)}${required.has(name) ? '' : '?'}: ${type};`);
  }
  const extra = schema.additionalProperties;
  if (extra !== undefined && extra !== false) {
    const type =
      extra === true
        ? 'unknown'
        : renderSchema(extra as OpenApiSchema, `${at}.additionalProperties`, inner, known);
    lines.push(`${inner}[key: string]: ${type};`);
  } else if (lines.length === 0) {
    // An object the document describes no further: its fields are the caller's to check.
    lines.push(`${inner}[key: string]: unknown;`);
  }
  return `{\n${lines.join('\n')}\n${indent}}`;
}

function doc(schema: OpenApiSchema, indent: string): string[] {
  const description = typeof schema.description === 'string' ? schema.description.trim() : '';
  if (description === '') return [];
  const text = description.replace(/\*\//g, '*\\/');
  return [`${indent}/** ${text.split('\n').join(`\n${indent} * `)} */`];
}

function fields(lines: readonly string[]): string {
  return lines.length === 0 ? 'Record<string, never>' : `{ ${lines.join(' ')} }`;
}

function property(name: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : JSON.stringify(name);
}

function fail(at: string, why: string): never {
  throw new Error(`OpenAPI document, ${at}: ${why}`);
}
