import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayNotEmpty,
  ArrayUnique,
  IsArray,
  IsIn,
  IsOptional,
  IsString,
  MaxLength,
  ValidateBy,
} from 'class-validator';
import {
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_URL_MAX_LENGTH,
  webhookUrlProblem,
  type WebhookEventType,
} from '@engram/domain';
import type { Webhook, WebhookDeliveryRecord, WebhookDeliveryStatus } from '@engram/projections';

const EVENTS_RULE = `events must be a list of: ${WEBHOOK_EVENT_TYPES.join(', ')}`;

/** The domain's URL rule, as a 400 that says which part is wrong. */
function IsWebhookUrl() {
  return ValidateBy({
    name: 'isWebhookUrl',
    validator: {
      validate: (value) => typeof value === 'string' && webhookUrlProblem(value) === undefined,
      defaultMessage: (args) =>
        typeof args?.value === 'string'
          ? (webhookUrlProblem(args.value) ?? 'url is invalid')
          : 'url must be a string',
    },
  });
}

export class RegisterWebhookBody {
  @ApiProperty({
    example: 'https://hooks.example.com/engram',
    maxLength: WEBHOOK_URL_MAX_LENGTH,
    description: 'https (http only to a loopback address: localhost, 127.0.0.1, ::1)',
  })
  @IsWebhookUrl()
  url!: string;

  @ApiProperty({ enum: WEBHOOK_EVENT_TYPES, isArray: true, example: ['action.expired'] })
  @IsArray({ message: EVENTS_RULE })
  @ArrayNotEmpty({ message: 'events must name at least one event type' })
  @ArrayMaxSize(WEBHOOK_EVENT_TYPES.length, { message: EVENTS_RULE })
  @ArrayUnique({ message: 'events must name each event type once' })
  @IsIn(WEBHOOK_EVENT_TYPES, { each: true, message: EVENTS_RULE })
  events!: WebhookEventType[];

  @ApiPropertyOptional({ maxLength: 200, example: 'Billing service' })
  @IsOptional()
  @IsString({ message: 'description must be a string' })
  @MaxLength(200, { message: 'description must be at most 200 characters' })
  description?: string;
}

export class WebhookResponse {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() url!: string;
  @ApiProperty({ enum: WEBHOOK_EVENT_TYPES, isArray: true }) events!: WebhookEventType[];
  @ApiPropertyOptional() description?: string;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ description: 'The admin who registered it' }) createdBy!: string;
}

export class RegisteredWebhookResponse extends WebhookResponse {
  @ApiProperty({
    example: 'whsec_…',
    description:
      'The signing secret, shown this once: verify `Engram-Signature` with it (HMAC-SHA256 of "<Engram-Timestamp>.<body>")',
  })
  secret!: string;
  @ApiProperty({ description: 'Position of the registration (minPosition of a later read)' })
  position!: number;
}

export class WebhookListResponse {
  @ApiProperty({ type: [WebhookResponse] }) items!: WebhookResponse[];
}

const DELIVERY_STATUSES: readonly WebhookDeliveryStatus[] = [
  'pending',
  'delivered',
  'failed',
  'cancelled',
];

export class WebhookDeliveryResponse {
  @ApiProperty({ format: 'uuid', description: 'Engram-Delivery-Id: the same on every retry' })
  id!: string;
  @ApiProperty({ format: 'uuid', description: 'The event delivered' }) eventId!: string;
  @ApiProperty({ enum: WEBHOOK_EVENT_TYPES }) event!: string;
  @ApiProperty({ type: String, nullable: true }) userId!: string | null;
  @ApiProperty({
    enum: DELIVERY_STATUSES,
    description:
      'pending (retried with backoff), delivered (a 2xx answer), failed (no 2xx after the last attempt), cancelled (the endpoint was removed)',
  })
  status!: WebhookDeliveryStatus;
  @ApiProperty() attempts!: number;
  @ApiProperty({ type: Number, nullable: true, description: "The last answer's HTTP status" })
  lastStatusCode!: number | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Why the last attempt failed (HTTP status, timeout, network error)',
  })
  lastError!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) nextAttemptAt!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) lastAttemptAt!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) deliveredAt!: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
}

export class WebhookDeliveriesResponse {
  @ApiProperty({ type: [WebhookDeliveryResponse] }) items!: WebhookDeliveryResponse[];
  @ApiProperty({ type: String, nullable: true }) nextCursor!: string | null;
}

export function toWebhookResponse(row: Webhook): WebhookResponse {
  return {
    id: row.webhookId,
    url: row.url,
    events: row.events,
    ...(row.description ? { description: row.description } : {}),
    createdAt: row.registeredAt.toISOString(),
    createdBy: row.registeredBy,
  };
}

export function toDeliveryResponse(row: WebhookDeliveryRecord): WebhookDeliveryResponse {
  const iso = (date: Date | null) => date?.toISOString() ?? null;
  return {
    id: row.deliveryId,
    eventId: row.eventId,
    event: row.eventType,
    userId: row.userId,
    status: row.status,
    attempts: row.attempts,
    lastStatusCode: row.lastStatusCode,
    lastError: row.lastError,
    nextAttemptAt: row.status === 'pending' ? iso(row.nextAttemptAt) : null,
    lastAttemptAt: iso(row.lastAttemptAt),
    deliveredAt: iso(row.deliveredAt),
    createdAt: row.createdAt.toISOString(),
  };
}
