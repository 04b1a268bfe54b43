import { BadRequestException } from '@nestjs/common';
import { IDENTIFIER_PATTERN } from '@engram/domain';

/** The workspace view pages users in id order; the cursor is the last user id of a page. */
export function encodeUserCursor(userId: string): string {
  return Buffer.from(userId).toString('base64url');
}

/** Only what encodeUserCursor gives is taken (an identifier), anything else is a 400. */
export function decodeUserCursor(raw: string): string {
  const userId = Buffer.from(raw, 'base64url').toString();
  if (IDENTIFIER_PATTERN.test(userId) && encodeUserCursor(userId) === raw) return userId;
  throw new BadRequestException('cursor is not a cursor this API gave');
}
