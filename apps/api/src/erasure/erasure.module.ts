import { Module } from '@nestjs/common';
import { KeyStore } from '@engram/crypto';
import { ErasureController } from './erasure.controller';
import { USER_KEYS } from '@engram/gdpr';

/** GDPR erasure by crypto-shredding (auditors). */
@Module({
  controllers: [ErasureController],
  providers: [{ provide: USER_KEYS, useExisting: KeyStore }],
})
export class ErasureModule {}
