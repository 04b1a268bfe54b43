import { UnsupportedMediaTypeException } from '@nestjs/common';
import { jsonBodiesOnly } from './json-bodies-only';

function outcome(headers: Record<string, string>): unknown {
  let passed: unknown = 'not called';
  jsonBodiesOnly({ headers }, undefined, (error) => {
    passed = error;
  });
  return passed;
}

describe('jsonBodiesOnly', () => {
  it.each([
    ['a JSON body', { 'content-type': 'application/json', 'content-length': '2' }],
    [
      'a JSON body with its charset',
      { 'content-type': 'Application/JSON; charset=utf-8', 'content-length': '2' },
    ],
    ['no body (an empty POST)', { 'content-length': '0' }],
    ['no body and no length (a GET)', {}],
  ])('lets %s through', (_, headers) => {
    expect(outcome(headers)).toBeUndefined();
  });

  it.each([
    [
      'a form',
      { 'content-type': 'application/x-www-form-urlencoded', 'content-length': '3' },
      'not application/x-www-form-urlencoded',
    ],
    [
      'text in chunks',
      { 'content-type': 'text/plain', 'transfer-encoding': 'chunked' },
      'not text/plain',
    ],
    ['a body without a content type', { 'content-length': '7' }, 'this one has no Content-Type'],
    [
      'a JSON look-alike',
      { 'content-type': 'application/jsonp', 'content-length': '2' },
      'not application/jsonp',
    ],
  ])('answers 415 to %s', (_, headers, says) => {
    const error = outcome(headers);
    expect(error).toBeInstanceOf(UnsupportedMediaTypeException);
    expect((error as Error).message).toBe(`Request bodies must be application/json: ${says}`);
  });
});
