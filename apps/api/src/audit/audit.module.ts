import { Module } from '@nestjs/common';
import { AuditController } from './audit.controller';

/** Auditors: a user's export (NDJSON) and memories as of an instant; each access is itself recorded. */
@Module({ controllers: [AuditController] })
export class AuditModule {}
