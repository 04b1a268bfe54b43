import { createRemoteJWKSet, jwtVerify, type JWTVerifyGetKey } from 'jose';
import { InvalidTokenError, principalFromClaims, type Principal } from './principal';

export type TokenVerifierOptions = Readonly<{
  /** HS256 shared secret. */
  secret?: string | undefined;
  /** RS256/ES256 keys served as a JWKS. */
  jwksUrl?: string | undefined;
  issuer?: string | undefined;
  audience?: string | undefined;
}>;

export class TokenVerifier {
  private readonly secret: Uint8Array | undefined;
  private readonly jwks: JWTVerifyGetKey | undefined;

  constructor(private readonly options: TokenVerifierOptions) {
    this.secret = options.secret ? new TextEncoder().encode(options.secret) : undefined;
    this.jwks = options.jwksUrl ? createRemoteJWKSet(new URL(options.jwksUrl)) : undefined;
    if (!this.secret && !this.jwks) throw new Error('TokenVerifier needs a secret or a JWKS URL');
  }

  async verify(token: string): Promise<Principal> {
    const common = {
      ...(this.options.issuer ? { issuer: this.options.issuer } : {}),
      ...(this.options.audience ? { audience: this.options.audience } : {}),
    };
    try {
      const { payload } =
        this.jwks && !this.isSymmetric(token)
          ? await jwtVerify(token, this.jwks, {
              ...common,
              algorithms: ['RS256', 'ES256', 'EdDSA'],
            })
          : await jwtVerify(token, this.secret!, { ...common, algorithms: ['HS256'] });
      return principalFromClaims(payload);
    } catch (error) {
      if (error instanceof InvalidTokenError) throw error;
      throw new InvalidTokenError((error as Error).message);
    }
  }

  private isSymmetric(token: string): boolean {
    if (!this.secret) return false;
    try {
      const header = JSON.parse(Buffer.from(token.split('.')[0] ?? '', 'base64url').toString()) as {
        alg?: string;
      };
      return header.alg === 'HS256';
    } catch {
      return false;
    }
  }
}
