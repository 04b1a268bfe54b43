import { SetMetadata, createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Role } from '@engram/domain';
import type { Principal } from './principal';

export const PUBLIC_KEY = 'engram:public';
export const ROLES_KEY = 'engram:roles';

/** No token needed (health, docs, tool definitions). */
export const Public = () => SetMetadata(PUBLIC_KEY, true);

/** The caller needs one of these roles; a `:ws` path parameter must also be the token's workspace. */
export const Roles = (...roles: Role[]) => SetMetadata(ROLES_KEY, roles);

export type AuthenticatedRequest = { principal?: Principal };

export const CurrentPrincipal = createParamDecorator((_: unknown, context: ExecutionContext) => {
  const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
  if (!request.principal) throw new Error('CurrentPrincipal used on a public route');
  return request.principal;
});
