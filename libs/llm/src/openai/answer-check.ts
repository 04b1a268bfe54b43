export type AnswerCheck<T> =
  Readonly<{ ok: true; value: T }> | Readonly<{ ok: false; reason: string }>;

export function parseJsonAnswer(content: string): AnswerCheck<unknown> {
  try {
    return { ok: true, value: JSON.parse(content) as unknown };
  } catch {
    return { ok: false, reason: 'invalid_json' };
  }
}

export function invalidSchema(detail: string): AnswerCheck<never> {
  return { ok: false, reason: `invalid_schema: ${detail}` };
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The answer `{ [field]: string }` with a non-blank string of at most maxLength characters. */
export function checkTextAnswer(
  value: unknown,
  field: string,
  maxLength: number,
): AnswerCheck<string> {
  if (!isRecord(value)) return invalidSchema('the answer is not an object');
  const text = value[field];
  if (typeof text !== 'string') return invalidSchema(`${field} is not a string`);
  const trimmed = text.trim();
  if (trimmed === '') return invalidSchema(`${field} is empty`);
  if (trimmed.length > maxLength) {
    return invalidSchema(`${field} is longer than ${maxLength} characters`);
  }
  return { ok: true, value: trimmed };
}

export function textAnswerSchema(field: string): Record<string, unknown> {
  return {
    type: 'object',
    properties: { [field]: { type: 'string' } },
    required: [field],
    additionalProperties: false,
  };
}
