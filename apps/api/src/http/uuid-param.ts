import { BadRequestException, Injectable, type PipeTransform } from '@nestjs/common';
import { isUUID } from 'class-validator';

/** Validates a UUID path parameter (memoryId, actionId...) and lower-cases it. */
@Injectable()
export class UuidParam implements PipeTransform<string, string> {
  constructor(private readonly name: string) {}

  transform(value: string): string {
    if (!isUUID(value)) throw new BadRequestException(`path parameter ${this.name} must be a UUID`);
    return value.toLowerCase();
  }
}
