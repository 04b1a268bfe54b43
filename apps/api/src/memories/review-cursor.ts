import { BadRequestException } from '@nestjs/common';
import { isUUID } from 'class-validator';

/** Keyset position in the queue (oldest first): new candidates land after it, so pages stay stable. */
export type ReviewCursor = Readonly<{ createdAt: string; memoryId: string }>;

/**
 * What encodeCursor writes for createdAt: `Date#toISOString` of a year PostgreSQL stores, 0001 to
 * 9999 (JavaScript takes a year 0000, PostgreSQL has none: that was a 500).
 */
const CREATED_AT = /^(?!0000)\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export function encodeCursor(cursor: ReviewCursor): string {
  return Buffer.from(JSON.stringify([cursor.createdAt, cursor.memoryId])).toString('base64url');
}

/**
 * Only what encodeCursor gives is taken: the values go into SQL parameters typed timestamptz and
 * uuid, where anything else would be a database error, not a 400.
 */
export function decodeCursor(raw: string): ReviewCursor {
  try {
    const [createdAt, memoryId] = JSON.parse(Buffer.from(raw, 'base64url').toString()) as unknown[];
    if (
      typeof createdAt === 'string' &&
      CREATED_AT.test(createdAt) &&
      new Date(createdAt).toISOString() === createdAt &&
      typeof memoryId === 'string' &&
      isUUID(memoryId)
    ) {
      return { createdAt, memoryId };
    }
  } catch {
    // falls through to the 400
  }
  throw new BadRequestException('cursor is not a cursor this API gave');
}
