import type { NestExpressApplication } from '@nestjs/platform-express';
import { answerClientErrorsInJson } from './client-errors';
import { jsonBodiesOnly } from './json-bodies-only';

/**
 * What every request meets before a controller, beside the validation pipe: Node's parse errors
 * (431...) as JSON, bodies as JSON only (415). (No undeclared query parameter, 400, is
 * DeclaredQueryGuard: global guards are providers of AppModule.) Call it before the body parser is
 * registered.
 */
export function guardRequestEdge(app: NestExpressApplication): void {
  answerClientErrorsInJson(app.getHttpServer());
  app.use(jsonBodiesOnly);
}
