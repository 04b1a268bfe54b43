import {
  BadRequestException,
  Injectable,
  type CanActivate,
  type ExecutionContext,
  type Type,
} from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { getMetadataStorage } from 'class-validator';

type RouteArgument = Readonly<{ index: number; data?: unknown }>;

/**
 * The query parameters a handler declares: the properties of its `@Query()` DTO (those with a
 * class-validator rule, as the validation pipe's whitelist sees them) and the names of its
 * `@Query('name')` arguments. None when it takes no query.
 */
export function declaredQueryParameters(controller: Type, handler: string): ReadonlySet<string> {
  const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, handler) ?? {}) as Record<
    string,
    RouteArgument
  >;
  const types = (Reflect.getMetadata(
    'design:paramtypes',
    controller.prototype as object,
    handler,
  ) ?? []) as unknown[];
  const names = new Set<string>();
  for (const [key, argument] of Object.entries(args)) {
    if (key.split(':')[0] !== String(RouteParamtypes.QUERY)) continue;
    if (typeof argument.data === 'string') {
      names.add(argument.data);
      continue;
    }
    const dto = types[argument.index];
    if (typeof dto !== 'function') continue;
    for (const rule of getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false)) {
      names.add(rule.propertyName);
    }
  }
  return names;
}

/**
 * Refuses a query parameter the route does not declare, on every route alike (400 naming it). The
 * validation pipe's whitelist refused them only where a handler takes a query DTO; elsewhere they
 * were dropped without a word, so a client's typo (`?limt=5`) looked like it worked. A global guard
 * after AuthGuard (a 401 or 403 comes first, as before): as an interceptor it cost every request an
 * observable chain for a check that needs none.
 */
@Injectable()
export class DeclaredQueryGuard implements CanActivate {
  private readonly declared = new Map<unknown, ReadonlySet<string>>();

  canActivate(context: ExecutionContext): boolean {
    const handler = context.getHandler();
    let names = this.declared.get(handler);
    if (!names) {
      names = declaredQueryParameters(context.getClass(), handler.name);
      this.declared.set(handler, names);
    }
    const query = context.switchToHttp().getRequest<{ query?: object }>().query ?? {};
    const unknown = Object.keys(query).find((name) => !names.has(name));
    if (unknown !== undefined) {
      const accepted = names.size > 0 ? `accepted: ${[...names].join(', ')}` : 'it takes none';
      throw new BadRequestException(
        `query parameter ${unknown.slice(0, 100)} is not accepted here (${accepted})`,
      );
    }
    return true;
  }
}
