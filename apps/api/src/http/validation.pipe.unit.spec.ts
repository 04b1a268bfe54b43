import { BadRequestException } from '@nestjs/common';
import { ProposeActionBody } from '../actions/action.dto';
import { MemorySettingsBody } from '../policy/memory-settings.dto';
import { RecordMessageBody } from '../messages/record-message.dto';
import { MAX_INPUT_DEPTH } from './unstorable-input';
import { validationPipe } from './validation.pipe';

function nested(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i += 1) value = { a: value };
  return value;
}

const action = (input: unknown) => ({ tool: 't', summary: 's', channel: 'web', input });
const asBody = (metatype: new () => object) => ({ type: 'body' as const, metatype });

describe('validationPipe: input that cannot be stored', () => {
  it('refuses a body nested thousands of levels deep with a 400 (it overflowed the stack: a 500)', async () => {
    const transform = validationPipe.transform(action(nested(3000)), asBody(ProposeActionBody));
    await expect(transform).rejects.toThrow(BadRequestException);
    await expect(transform).rejects.toThrow(`more than ${MAX_INPUT_DEPTH} levels deep`);
  });

  it('takes an object nested within the limit', async () => {
    const input = nested(MAX_INPUT_DEPTH - 2);
    await expect(
      validationPipe.transform(action(input), asBody(ProposeActionBody)),
    ).resolves.toMatchObject({ input });
  });

  it('refuses the NUL character in a text and in a nested key, naming where it is', async () => {
    const message = { sessionId: 's', role: 'user', channel: 'web', text: 'a\u0000b' };
    await expect(validationPipe.transform(message, asBody(RecordMessageBody))).rejects.toThrow(
      'body.text must not contain the NUL character',
    );
    await expect(
      validationPipe.transform(action({ list: [{ 'k\u0000': 1 }] }), asBody(ProposeActionBody)),
    ).rejects.toThrow('body.input.list.0 has a key with the NUL character');
  });

  const message = (fields: Record<string, unknown>) => ({
    sessionId: 's',
    role: 'user',
    channel: 'web',
    text: 'bonjour',
    ...fields,
  });

  it.each([
    ['a lone high surrogate', 'bonjour \ud800'],
    ['a lone low surrogate', '\udc00 bonjour'],
    ['a high surrogate at the end', 'bonjour \ud83d'],
  ])('refuses %s in a text, naming the field', async (_, text) => {
    await expect(
      validationPipe.transform(message({ text }), asBody(RecordMessageBody)),
    ).rejects.toThrow('body.text must not contain a lone UTF-16 surrogate');
  });

  it('takes surrogate pairs (emoji), right-to-left marks and combining characters', async () => {
    const text = 'Salut 😀👍🏽 \u200Fשלום\u200E e\u0301';
    await expect(
      validationPipe.transform(message({ text }), asBody(RecordMessageBody)),
    ).resolves.toMatchObject({ text });
  });

  it('refuses a lone surrogate in a nested key and in a query or path value', async () => {
    await expect(
      validationPipe.transform(action({ list: [{ 'k\udfff': 1 }] }), asBody(ProposeActionBody)),
    ).rejects.toThrow('body.input.list.0 has a key with a lone UTF-16 surrogate');
    await expect(
      validationPipe.transform({ cursor: '\ud800' }, { type: 'query', metatype: Object }),
    ).rejects.toThrow('query.cursor must not contain a lone UTF-16 surrogate');
    await expect(
      validationPipe.transform('a\u0000', { type: 'param', data: 'ws', metatype: String }),
    ).rejects.toThrow('path parameter ws must not contain the NUL character');
  });

  it.each(['__proto__', 'constructor', 'prototype'])(
    'refuses a %s key at any depth',
    async (key) => {
      const nestedKey = JSON.parse(`{"a":[{"${key}":{"polluted":true}}]}`) as object;
      await expect(
        validationPipe.transform(action(nestedKey), asBody(ProposeActionBody)),
      ).rejects.toThrow(`body.input.a.0 must not have a key named ${key}`);
      const topLevel = JSON.parse(`{"text":"x","${key}":{"polluted":true}}`) as object;
      await expect(
        validationPipe.transform({ ...message({}), ...topLevel }, asBody(RecordMessageBody)),
      ).rejects.toThrow(BadRequestException);
    },
  );

  it.each([
    ['year 10000 in UTC through an offset', '9999-12-31T23:00:00-12:00'],
    ['before 1970 in UTC through an offset', '1970-01-01T00:30:00+01:00'],
    ['year 0000', '0000-01-01T00:00:00Z'],
    ['an extended year', '+010000-01-01T00:00:00Z'],
    ['a week date Date cannot read', '2026-W10-1'],
  ])('refuses occurredAt and pausedUntil at %s, naming the field', async (_, date) => {
    await expect(
      validationPipe.transform(message({ occurredAt: date }), asBody(RecordMessageBody)),
    ).rejects.toThrow(
      'occurredAt must be an ISO-8601 date-time, from 1970-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z (in UTC)',
    );
    await expect(
      validationPipe.transform({ enabled: true, pausedUntil: date }, asBody(MemorySettingsBody)),
    ).rejects.toThrow(
      'pausedUntil must be an ISO-8601 date-time or null, from 1970-01-01T00:00:00Z',
    );
  });

  it('takes dates at both ends of the range, and a null pause', async () => {
    for (const occurredAt of ['1970-01-01T00:00:00Z', '9999-12-31T23:59:59.999Z']) {
      await expect(
        validationPipe.transform(message({ occurredAt }), asBody(RecordMessageBody)),
      ).resolves.toMatchObject({ occurredAt });
    }
    await expect(
      validationPipe.transform({ enabled: true, pausedUntil: null }, asBody(MemorySettingsBody)),
    ).resolves.toMatchObject({ pausedUntil: null });
  });
});
