import {
  BadRequestException,
  ValidationPipe,
  type ArgumentMetadata,
  type ValidationError,
} from '@nestjs/common';
import { unstorableInput } from './unstorable-input';

function describe(errors: readonly ValidationError[], parent = ''): string[] {
  return errors.flatMap((error) => {
    const path = parent ? `${parent}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {}).map((message) =>
      message.startsWith(error.property)
        ? message.replace(error.property, path)
        : `${path}: ${message}`,
    );
    return [...own, ...describe(error.children ?? [], path)];
  });
}

/** Where a value came from, as the 400 names it: `body.text`, `query.cursor`, `path parameter ws`. */
function rootOf(metadata: ArgumentMetadata): string | undefined {
  switch (metadata.type) {
    case 'body':
    case 'query':
      return metadata.data ? `${metadata.type}.${metadata.data}` : metadata.type;
    case 'param':
      return `path parameter ${metadata.data ?? ''}`.trim();
    default:
      return undefined;
  }
}

/** Refuses what cannot be stored (see unstorableInput) before the DTO rules run. */
class EngramValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const root = rootOf(metadata);
    if (root) {
      const problem = unstorableInput(value, root);
      if (problem) throw new BadRequestException(problem);
    }
    return (await super.transform(value, metadata)) as unknown;
  }
}

/** Bodies and queries are validated against their DTO; unknown fields are refused, not dropped. */
export const validationPipe = new EngramValidationPipe({
  whitelist: true,
  forbidNonWhitelisted: true,
  transform: true,
  stopAtFirstError: false,
  exceptionFactory: (errors) => new BadRequestException(describe(errors).join('; ')),
});
