import { BadRequestException } from '@nestjs/common';
import { parseJsonBody } from './json-body';

describe('parseJsonBody', () => {
  it('reads an object or an array, and an empty body as {}', () => {
    expect(parseJsonBody(' {"a":[1,{"b":null}]}')).toEqual({ a: [1, { b: null }] });
    expect(parseJsonBody('\n[1,2]')).toEqual([1, 2]);
    expect(parseJsonBody('')).toEqual({});
    expect(parseJsonBody(' \r\n\t')).toEqual({});
  });

  it('keeps a __proto__ key as an own key, for the validation pipe to name', () => {
    const body = parseJsonBody('{"__proto__":{"polluted":true}}') as object;
    expect(Object.keys(body)).toEqual(['__proto__']);
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it.each([
    ['"text"', /must be a JSON object or array, not one starting with "\\""/],
    ['42', /not one starting with "4"/],
    ['{"sessionId": ', /^The request body is not valid JSON: /],
    ['{"a":1}}', /^The request body is not valid JSON: /],
  ])('refuses %s with a 400 that says why', (text, message) => {
    expect(() => parseJsonBody(text)).toThrow(BadRequestException);
    expect(() => parseJsonBody(text)).toThrow(message);
  });
});
