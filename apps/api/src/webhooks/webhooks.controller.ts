import {
  BadRequestException,
  Body,
  Controller,
  Delete,
  Get,
  Headers,
  HttpCode,
  Inject,
  NotFoundException,
  Param,
  Post,
  Query,
} from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { randomBytes, randomUUID } from 'node:crypto';
import { CurrentPrincipal, Roles, type Principal } from '@engram/auth';
import { KeyStore, workspaceSecrets } from '@engram/crypto';
import {
  InvalidWebhookError,
  webhookDecider,
  workspaceStream,
  type Clock,
  type WebhookCommand,
} from '@engram/domain';
import { CLOCK } from '@engram/platform';
import { webhookSecretName } from '@engram/process-managers';
import {
  findWebhook,
  listWebhookDeliveries,
  listWebhooks,
  webhooksProjection,
} from '@engram/projections';
import { parseActivityCursor } from '../actions/activity-cursor';
import { Commands } from '../commands/commands';
import { PageQuery } from '../http/page-query';
import { IdentifierParam } from '../http/path-params';
import { positionToJson } from '../http/position';
import { correlationIdOf, type Headers as RequestHeaders } from '../http/request-context';
import { UuidParam } from '../http/uuid-param';
import { ReadModels } from '../read-models/read-models';
import { ReadQuery } from '../read-models/read-query';
import {
  RegisterWebhookBody,
  RegisteredWebhookResponse,
  WebhookDeliveriesResponse,
  WebhookListResponse,
  toDeliveryResponse,
  toWebhookResponse,
} from './webhooks.dto';

/** Webhook endpoints of a workspace (admins): register (the signing secret shown once), list, remove, the delivery log. */
@ApiTags('admin')
@ApiBearerAuth()
@Roles('admin')
@Controller('v1/workspaces/:ws/webhooks')
export class WebhooksController {
  private readonly secrets: ReturnType<typeof workspaceSecrets>;

  constructor(
    private readonly commands: Commands,
    private readonly readModels: ReadModels,
    @Inject(CLOCK) private readonly clock: Clock,
    keys: KeyStore,
  ) {
    this.secrets = workspaceSecrets(keys);
  }

  @Post()
  @ApiOperation({
    summary: 'Register a webhook endpoint',
    description:
      'Deliveries are POSTed as JSON, signed (`Engram-Signature: v1=<hex HMAC-SHA256(secret, "<Engram-Timestamp>.<body>")>`), retried with backoff for about 24 h, at least once: deduplicate on `Engram-Delivery-Id`. The secret is answered this once; it is kept sealed under the workspace key.',
  })
  @ApiCreatedResponse({ type: RegisteredWebhookResponse })
  async register(
    @Param('ws', new IdentifierParam('ws')) workspaceId: string,
    @CurrentPrincipal() me: Principal,
    @Body() body: RegisterWebhookBody,
    @Headers() headers: RequestHeaders,
  ): Promise<RegisteredWebhookResponse> {
    const webhookId = randomUUID();
    const secret = `whsec_${randomBytes(32).toString('base64url')}`;
    const sealedSecret = await this.secrets.seal(workspaceId, webhookSecretName(webhookId), secret);
    const description = body.description?.trim() || undefined;
    const createdAt = this.clock.now().toUTC().toISO()!;
    const result = await this.decide(workspaceId, webhookId, me, headers, createdAt, {
      type: 'RegisterWebhook',
      webhookId,
      url: body.url,
      events: body.events,
      description,
      sealedSecret,
      registeredBy: me.userId,
    });
    return {
      id: webhookId,
      url: body.url,
      events: [...body.events],
      ...(description ? { description } : {}),
      createdAt,
      createdBy: me.userId,
      secret,
      position: positionToJson(result.position),
    };
  }

  @Get()
  @ApiOperation({ summary: "The workspace's webhook endpoints in force, without their secrets" })
  @ApiOkResponse({ type: WebhookListResponse })
  async list(
    @Param('ws', new IdentifierParam('ws')) workspaceId: string,
    @CurrentPrincipal() me: Principal,
    @Query() query: ReadQuery,
  ): Promise<WebhookListResponse> {
    await this.readModels.catchUp(
      { workspaceId, userId: me.userId },
      [webhooksProjection.name],
      query,
    );
    const rows = await this.readModels.read(me, (manager) => listWebhooks(manager, workspaceId));
    return { items: rows.map(toWebhookResponse) };
  }

  @Delete(':webhookId')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Remove a webhook endpoint',
    description:
      'Nothing more is enqueued for it; what waits is cancelled (kept in its delivery log). 404 for an unknown or already removed endpoint.',
  })
  @ApiNoContentResponse({ description: 'Removed' })
  async remove(
    @Param('ws', new IdentifierParam('ws')) workspaceId: string,
    @Param('webhookId', new UuidParam('webhookId')) webhookId: string,
    @CurrentPrincipal() me: Principal,
    @Headers() headers: RequestHeaders,
  ): Promise<void> {
    await this.decide(workspaceId, webhookId, me, headers, undefined, {
      type: 'RemoveWebhook',
      removedBy: me.userId,
    });
  }

  @Get(':webhookId/deliveries')
  @ApiOperation({
    summary: "An endpoint's delivery log, newest event first",
    description:
      'One line per delivery: the event, attempts, the last HTTP status or error, the next attempt, when it was delivered. Paginated with `cursor` and `limit`.',
  })
  @ApiOkResponse({ type: WebhookDeliveriesResponse })
  async deliveries(
    @Param('ws', new IdentifierParam('ws')) workspaceId: string,
    @Param('webhookId', new UuidParam('webhookId')) webhookId: string,
    @CurrentPrincipal() me: Principal,
    @Query() query: PageQuery,
  ): Promise<WebhookDeliveriesResponse> {
    await this.readModels.catchUp(
      { workspaceId, userId: me.userId },
      [webhooksProjection.name],
      query,
    );
    // The log's cursor is the event position of the last line shown (one delivery per event and endpoint).
    const before = query.cursor === undefined ? undefined : parseActivityCursor(query.cursor);
    const limit = query.limit ?? 20;
    const { webhook, rows } = await this.readModels.read(me, async (manager) => ({
      webhook: await findWebhook(manager, workspaceId, webhookId),
      rows: await listWebhookDeliveries(manager, workspaceId, webhookId, {
        before,
        limit: limit + 1,
      }),
    }));
    if (!webhook) throw new NotFoundException('Webhook not found');
    const page = rows.slice(0, limit);
    return {
      items: page.map(toDeliveryResponse),
      nextCursor: rows.length > limit ? String(page.at(-1)!.eventPosition) : null,
    };
  }

  private async decide(
    workspaceId: string,
    webhookId: string,
    me: Principal,
    headers: RequestHeaders,
    occurredAt: string | undefined,
    command: WebhookCommand,
  ) {
    try {
      return await this.commands.decide(
        workspaceStream(workspaceId, 'webhook', webhookId),
        webhookDecider,
        command,
        { workspaceId, userId: me.userId, correlationId: correlationIdOf(headers), occurredAt },
      );
    } catch (error) {
      // The body's validation refuses the same first; the decider's rule is the last word.
      if (error instanceof InvalidWebhookError) throw new BadRequestException(error.message);
      throw error;
    }
  }
}
