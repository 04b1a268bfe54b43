import { BadRequestException, Injectable, type PipeTransform } from '@nestjs/common';
import { isIdentifier } from '@engram/domain';

/** Validates an identifier path parameter (ws, userId...). */
@Injectable()
export class IdentifierParam implements PipeTransform<string, string> {
  constructor(private readonly name: string) {}

  transform(value: string): string {
    if (!isIdentifier(value)) {
      throw new BadRequestException(
        `path parameter ${this.name} must be 1-128 characters of A-Z a-z 0-9 . _ : -`,
      );
    }
    return value;
  }
}
