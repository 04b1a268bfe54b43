import { BadRequestException } from '@nestjs/common';

/** Keyset position in the queue (oldest first): new candidates land after it, so pages stay stable. */
export type ReviewCursor = Readonly<{ createdAt: string; memoryId: string }>;

export function encodeCursor(cursor: ReviewCursor): string {
  return Buffer.from(JSON.stringify([cursor.createdAt, cursor.memoryId])).toString('base64url');
}

export function decodeCursor(raw: string): ReviewCursor {
  try {
    const [createdAt, memoryId] = JSON.parse(Buffer.from(raw, 'base64url').toString()) as unknown[];
    if (
      typeof createdAt === 'string' &&
      !Number.isNaN(Date.parse(createdAt)) &&
      typeof memoryId === 'string'
    ) {
      return { createdAt, memoryId };
    }
  } catch {
    // falls through to the 400
  }
  throw new BadRequestException('cursor is not a cursor this API gave');
}
