import {
  ForbiddenException,
  Injectable,
  Optional,
  UnauthorizedException,
  type CanActivate,
  type ExecutionContext,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Role } from '@engram/domain';
import { PUBLIC_KEY, ROLES_KEY, type AuthenticatedRequest } from './decorators';
import { InvalidTokenError } from './principal';
import { ServiceKeyVerifier, looksLikeServiceKey } from './service-key-verifier';
import { TokenVerifier } from './token-verifier';

type HttpRequest = AuthenticatedRequest & {
  headers: Record<string, string | string[] | undefined>;
  params?: Record<string, string>;
};

/**
 * Global guard: 401 without a valid bearer (a JWT, or an agent's service key through the
 * `ServiceKeyVerifier` port when the app provides one), 403 for a wrong role or another workspace.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly verifier: TokenVerifier,
    @Optional() private readonly serviceKeys?: ServiceKeyVerifier,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_KEY, targets)) return true;
    const request = context.switchToHttp().getRequest<HttpRequest>();
    const principal = await this.authenticate(request);
    request.principal = principal;

    const roles = this.reflector.getAllAndOverride<Role[] | undefined>(ROLES_KEY, targets);
    if (roles && !roles.some((role) => principal.roles.includes(role))) {
      throw new ForbiddenException(`This endpoint needs the role ${roles.join(' or ')}`);
    }
    const workspace = request.params?.ws;
    if (workspace !== undefined && workspace !== principal.workspaceId) {
      throw new ForbiddenException(
        `The token is for workspace ${principal.workspaceId}, not ${workspace}`,
      );
    }
    return true;
  }

  private async authenticate(request: HttpRequest) {
    const header = request.headers.authorization;
    const value = Array.isArray(header) ? header[0] : header;
    const match = /^Bearer\s+(\S+)$/i.exec(value ?? '');
    if (!match) {
      throw new UnauthorizedException(
        'Missing bearer token (Authorization: Bearer <JWT or service key>)',
      );
    }
    const bearer = match[1]!;
    const isKey = looksLikeServiceKey(bearer);
    try {
      if (!isKey) return await this.verifier.verify(bearer);
      if (!this.serviceKeys) throw new InvalidTokenError('service keys are not accepted here');
      return await this.serviceKeys.verify(bearer);
    } catch (error) {
      if (error instanceof InvalidTokenError) {
        throw new UnauthorizedException(
          `Invalid ${isKey ? 'service key' : 'token'}: ${error.message}`,
        );
      }
      throw error;
    }
  }
}
