import { BadRequestException } from '@nestjs/common';
import { validationPipe } from '../http/validation.pipe';

/**
 * A tool call's arguments checked as the HTTP body `dto` is (the stock pipe, used directly): a 400
 * naming each field and rule, unknown fields refused; absent arguments are `{}`.
 */
export async function validateArgs<T extends object>(dto: new () => T, args: unknown): Promise<T> {
  const given = args ?? {};
  if (typeof given !== 'object' || Array.isArray(given)) {
    throw new BadRequestException('The arguments of a tool call must be a JSON object');
  }
  return (await validationPipe.transform(given, { type: 'body', metatype: dto })) as T;
}
