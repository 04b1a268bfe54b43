import type { EventMetadata, RecordMessage } from '@engram/domain';

export class RecordMessageCommand {
  constructor(
    readonly workspaceId: string,
    readonly userId: string,
    readonly command: RecordMessage,
    readonly metadata: EventMetadata,
  ) {}
}

export type RecordMessageOutcome = Readonly<{
  messageId: string;
  traceId: string;
  position: bigint;
}>;
