import 'reflect-metadata';
import {
  Body,
  Controller,
  HttpCode,
  Injectable,
  Module,
  Post,
  UnauthorizedException,
  ValidationPipe,
  type CanActivate,
  type ExecutionContext,
} from '@nestjs/common';
import { APP_GUARD, NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { jwtVerify } from 'jose';
import { RecordMessageBody } from '../../apps/api/src/messages/record-message.dto';

/**
 * The least a NestJS 11 (express) app does for Engram's message route: the same HS256 bearer check
 * with jose, the same body DTO (RecordMessageBody, so the same class-validator rules) through the
 * stock ValidationPipe, the same 400 for a missing text. Nothing else: no logging, metrics, security
 * headers, error filter or interceptors. The append bench measures Engram's HTTP pipeline against it
 * under the same load, to tell what the framework costs from what Engram adds.
 */
const secret = new TextEncoder().encode(process.env.ENGRAM_JWT_SECRET ?? '');

@Injectable()
class BearerGuard implements CanActivate {
  async canActivate(context: ExecutionContext): Promise<boolean> {
    const header = context.switchToHttp().getRequest<{ headers: Record<string, string> }>()
      .headers.authorization;
    const token = /^Bearer\s+(\S+)$/i.exec(header ?? '')?.[1];
    if (!token) throw new UnauthorizedException('Missing bearer token');
    try {
      await jwtVerify(token, secret, { algorithms: ['HS256'], requiredClaims: ['exp'] });
    } catch {
      throw new UnauthorizedException('Invalid token');
    }
    return true;
  }
}

@Controller('v1/workspaces/:ws/users/:userId/messages')
class MessagesController {
  @Post()
  @HttpCode(202)
  record(@Body() body: RecordMessageBody): { messageId: string | undefined } {
    return { messageId: body.messageId };
  }
}

@Module({
  controllers: [MessagesController],
  providers: [{ provide: APP_GUARD, useClass: BearerGuard }],
})
class MinimalModule {}

async function main(): Promise<void> {
  const app = await NestFactory.create<NestExpressApplication>(MinimalModule, { logger: false });
  app.useGlobalPipes(
    new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true, transform: true }),
  );
  await app.listen(Number(process.env.PORT ?? 0), '127.0.0.1');
  // A clean exit on the bench's SIGTERM (so that --cpu-prof, under ENGRAM_BENCH_CPU_PROF, writes its profile).
  process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
  const { port } = app.getHttpServer().address() as { port: number };
  // The line startEngram waits for.
  console.log(`minimal app listening on http://127.0.0.1:${port}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
