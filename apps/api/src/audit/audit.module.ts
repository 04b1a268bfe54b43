import { Module } from '@nestjs/common';
import { AuditController } from './audit.controller';
import { ExportRendering } from './export-rendering';

/** Auditors: a user's export (NDJSON) and memories as of an instant; each access is itself recorded. */
@Module({ controllers: [AuditController], providers: [ExportRendering] })
export class AuditModule {}
