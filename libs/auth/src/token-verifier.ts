import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import { InvalidTokenError, principalFromClaims, type Principal } from './principal';

export type TokenVerifierOptions = Readonly<{
  /** HS256 shared secret. */
  secret?: string | undefined;
  /** RS256/ES256 keys served as a JWKS. */
  jwksUrl?: string | undefined;
  issuer?: string | undefined;
  audience?: string | undefined;
  /** The longest a token may live, counted from its `iat`: exp − iat, and its age now. */
  maxAgeSeconds: number;
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
      // A bearer token that never expires is a password that cannot be changed: exp is required,
      // and jose refuses a missing iat, an iat in the future and an age past the cap.
      requiredClaims: ['exp'],
      maxTokenAge: this.options.maxAgeSeconds,
    };
    const providerKeys = this.isSymmetric(token) ? undefined : this.jwks;
    try {
      const { payload } = providerKeys
        ? await jwtVerify(token, providerKeys, {
            ...common,
            algorithms: ['RS256', 'ES256', 'EdDSA'],
          })
        : await jwtVerify(token, this.secret!, { ...common, algorithms: ['HS256'] });
      checkLifetime(payload, this.options.maxAgeSeconds);
      return principalFromClaims(payload);
    } catch (error) {
      if (error instanceof InvalidTokenError) throw error;
      if (error instanceof errors.JWSSignatureVerificationFailed) {
        // The usual cause is a token minted with another secret (another data folder, another
        // ENGRAM_JWT_SECRET): say so, without saying anything of the secret itself.
        throw new InvalidTokenError(
          providerKeys
            ? "its signature does not match the identity provider's keys (ENGRAM_JWKS_URL)"
            : "its signature does not match this server's secret (npm run token signs with it)",
        );
      }
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

/** A token minted to outlive the cap is refused even while it is young. */
function checkLifetime(claims: JWTPayload, maxAgeSeconds: number): void {
  const lifetime = claims.exp! - claims.iat!;
  if (lifetime > maxAgeSeconds) {
    throw new InvalidTokenError(
      `lifetime (exp - iat) is ${lifetime} s, more than the ${maxAgeSeconds} s allowed`,
    );
  }
}
