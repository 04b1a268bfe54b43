/** One operation of the OpenAPI document: what the property tests enumerate. */
export type Operation = Readonly<{
  /** `POST /v1/workspaces/{ws}/users/{userId}/messages` */
  key: string;
  method: string;
  path: string;
  pathParameters: readonly string[];
  queryParameters: readonly string[];
  hasBody: boolean;
}>;

type OpenApiParameter = { name: string; in: string };
type OpenApiOperation = { parameters?: OpenApiParameter[]; requestBody?: unknown };
type OpenApiDocument = { paths: Record<string, Record<string, OpenApiOperation>> };

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

/** Every operation of the document served at /docs/openapi.json. */
export function operationsOf(document: OpenApiDocument): Operation[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, operation]) => {
        const parameters = operation.parameters ?? [];
        const named = (location: string) =>
          parameters.filter((p) => p.in === location).map((p) => p.name);
        return {
          key: `${method.toUpperCase()} ${path}`,
          method,
          path,
          pathParameters: named('path'),
          queryParameters: named('query'),
          hasBody: operation.requestBody !== undefined,
        };
      }),
  );
}
