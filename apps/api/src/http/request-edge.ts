import type { NestExpressApplication } from '@nestjs/platform-express';
import { answerClientErrorsInJson } from './client-errors';
import { DeclaredQueryInterceptor } from './declared-query.interceptor';
import { jsonBodiesOnly } from './json-bodies-only';

/**
 * What every request meets before a controller, beside the validation pipe: Node's parse errors
 * (431...) as JSON, bodies as JSON only (415), no undeclared query parameter (400). Call it before
 * the body parser is registered.
 */
export function guardRequestEdge(app: NestExpressApplication): void {
  answerClientErrorsInJson(app.getHttpServer());
  app.use(jsonBodiesOnly);
  app.useGlobalInterceptors(new DeclaredQueryInterceptor());
}
