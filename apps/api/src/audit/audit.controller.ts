import type { FastifyReply } from 'fastify';
import { Controller, Get, Headers, Inject, Logger, Param, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiParam, ApiProduces, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, Roles, type Principal } from '@engram/auth';
import { asOfResult, initialAsOf, replayAsOf, type Clock } from '@engram/domain';
import { EventCodec, type EventStore } from '@engram/event-store';
import {
  EXPORT_PAGE_SIZE,
  ExportAbortedError,
  recordAuditAccess,
  writeUserExport,
} from '@engram/gdpr';
import { CLOCK, EVENT_STORE } from '@engram/platform';
import { INSTANT_RANGE } from '../http/instant';
import { IdentifierParam } from '../http/path-params';
import { correlationIdOf, type Headers as RequestHeaders } from '../http/request-context';
import { InstantParam, MemoriesAsOfResponse } from './audit.dto';
import { ExportRendering } from './export-rendering';

/**
 * Auditors (role auditor, own workspace) read one user's history: the raw events (export) and the
 * memories at a past instant (as-of, replayed from the events). Every access is recorded first, as an
 * `AuditAccessRecorded` event in the audited user's own history.
 */
@ApiTags('auditor')
@ApiBearerAuth()
@Roles('auditor')
@Controller('v1/workspaces/:ws/users/:userId')
export class AuditController {
  private readonly logger = new Logger('Audit');

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly codec: EventCodec,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly rendering: ExportRendering,
  ) {}

  /**
   * NDJSON, one line per event of the user, in global order, decrypted. The access is recorded first;
   * the export then covers every event up to that record (the head at that moment), the record
   * included, so its last line is normally its own access. `X-Export-Through-Position` says where it
   * stops; a connection cut before the end of the chunked body means the export is incomplete.
   */
  @Get('export')
  @ApiProduces('application/x-ndjson')
  @ApiOkResponse({
    description: 'One JSON event per line',
    content: {
      'application/x-ndjson': {
        schema: {
          type: 'string',
          description:
            'Newline-delimited JSON: one decoded event per line ({eventId, type, schemaVersion, streamId, globalPosition, data, metadata, …}), in global order',
        },
      },
    },
  })
  async export(
    @Param('ws', new IdentifierParam('ws')) workspaceId: string,
    @Param('userId', new IdentifierParam('userId')) userId: string,
    @CurrentPrincipal() me: Principal,
    @Headers() headers: RequestHeaders,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const through = await recordAuditAccess(this.deps(), {
      workspaceId,
      userId,
      access: 'export',
      auditorId: me.userId,
      correlationId: correlationIdOf(headers),
    });
    // Streamed on the Node response, Fastify left out (hijack); an error before the first byte
    // is answered on it by the error filter.
    reply.hijack();
    const res = reply.raw;
    res.statusCode = 200;
    res.setHeader('Content-Type', 'application/x-ndjson');
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Content-Disposition', `attachment; filename="${workspaceId}-${userId}.ndjson"`);
    res.setHeader('X-Export-Through-Position', through.toString());
    try {
      await writeUserExport(
        { ...this.deps(), render: this.rendering.render },
        workspaceId,
        userId,
        { through },
        res,
      );
      res.end();
    } catch (error) {
      // Before the first byte the error filter still answers with a JSON error.
      if (!res.headersSent) throw error;
      if (!(error instanceof ExportAbortedError)) {
        this.logger.error(`export of ${workspaceId}/${userId} failed midway: ${String(error)}`);
      }
      // The body is cut: the client sees an incomplete chunked response, never a silent truncation.
      res.destroy();
    }
  }

  /**
   * The user's memories as they stood at `timestamp`, replayed from their events (those that occurred
   * at or before it, in global order), each with its source message and history.
   */
  @Get('memories/as-of/:timestamp')
  @ApiParam({
    name: 'timestamp',
    description: `ISO-8601 date-time with a time zone, ${INSTANT_RANGE}`,
    example: '2026-03-01T10:00:00Z',
  })
  @ApiOkResponse({ type: MemoriesAsOfResponse })
  async asOf(
    @Param('ws', new IdentifierParam('ws')) workspaceId: string,
    @Param('userId', new IdentifierParam('userId')) userId: string,
    @Param('timestamp', new InstantParam('timestamp')) asOf: string,
    @CurrentPrincipal() me: Principal,
    @Headers() headers: RequestHeaders,
  ): Promise<MemoriesAsOfResponse> {
    const through = await recordAuditAccess(this.deps(), {
      workspaceId,
      userId,
      access: 'as_of',
      auditorId: me.userId,
      asOf,
      correlationId: correlationIdOf(headers),
    });
    let replay = initialAsOf(asOf);
    let after: bigint | 'start' = 'start';
    for (;;) {
      const page = await this.store.readUserEvents(workspaceId, userId, {
        after,
        maxCount: EXPORT_PAGE_SIZE,
        consistentThrough: through,
      });
      const upToRecord = page.filter((recorded) => recorded.globalPosition <= through);
      for (const event of await this.codec.decodeAll(upToRecord)) {
        replay = replayAsOf(replay, event);
      }
      const last = page.at(-1);
      if (!last || page.length < EXPORT_PAGE_SIZE || last.globalPosition >= through) break;
      after = last.globalPosition;
    }
    return { userId, asOf, items: asOfResult(replay) };
  }

  private deps() {
    return { store: this.store, codec: this.codec, clock: this.clock };
  }
}
