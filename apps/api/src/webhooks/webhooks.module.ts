import { Module } from '@nestjs/common';
import { WebhooksController } from './webhooks.controller';

/** Webhook endpoints of a workspace and their delivery log (the deliveries are the worker's). */
@Module({ controllers: [WebhooksController] })
export class WebhooksModule {}
