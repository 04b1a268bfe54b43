import { BadRequestException, ValidationPipe, type ValidationError } from '@nestjs/common';

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

/** Bodies and queries are validated against their DTO; unknown fields are refused, not dropped. */
export const validationPipe = new ValidationPipe({
  whitelist: true,
  forbidNonWhitelisted: true,
  transform: true,
  stopAtFirstError: false,
  exceptionFactory: (errors) => new BadRequestException(describe(errors).join('; ')),
});
