import { BadRequestException } from '@nestjs/common';

/** The first character that is not JSON's insignificant whitespace: where the body's value starts. */
const FIRST_CHARACTER = /[^ \t\n\r]/;

/**
 * A request body as the API reads it: an object or an array (a bare string, number or literal is
 * refused, like body-parser's strict mode), an empty body is `{}`, and keys are kept as written:
 * `__proto__`, `constructor` or `prototype` reach the validation pipe, which names them (Fastify's
 * own parser would refuse them with a message of its own, or strip them).
 */
export function parseJsonBody(text: string): unknown {
  const first = FIRST_CHARACTER.exec(text)?.[0];
  if (first === undefined) return {};
  if (first !== '{' && first !== '[') {
    throw new BadRequestException(
      `The request body must be a JSON object or array, not one starting with ${JSON.stringify(first)}`,
    );
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new BadRequestException(
      `The request body is not valid JSON: ${(error as Error).message}`,
    );
  }
}
