import { BadRequestException } from '@nestjs/common';
import { ProposeActionBody } from '../actions/action.dto';
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
});
