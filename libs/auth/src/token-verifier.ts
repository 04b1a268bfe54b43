import { createSecretKey, type KeyObject } from 'node:crypto';
import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import { LruCache } from '@engram/crypto';
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

/** How many verified HS256 tokens are remembered (least recently used out first): agents reuse theirs. */
export const VERIFIED_TOKEN_CACHE_SIZE = 10_000;

type Verified = Readonly<{ principal: Principal; validUntilMs: number }>;

export class TokenVerifier {
  /** One key object for every verification (jose would make one from bytes on each). */
  private readonly secret: KeyObject | undefined;
  private readonly jwks: JWTVerifyGetKey | undefined;
  /**
   * HS256 tokens already verified, by their exact text, until the first of their `exp` and their
   * `iat` + the age cap: the same bytes under the same secret verify the same way until then, and
   * an agent sends its token on every call (issue 18: verifying was a tenth of a refused request's
   * CPU). Only successes, only HS256: a provider's keys (JWKS) may be rotated under a token.
   */
  private readonly verified = new LruCache<string, Verified>(VERIFIED_TOKEN_CACHE_SIZE);

  constructor(private readonly options: TokenVerifierOptions) {
    this.secret = options.secret ? createSecretKey(Buffer.from(options.secret, 'utf8')) : undefined;
    this.jwks = options.jwksUrl ? createRemoteJWKSet(new URL(options.jwksUrl)) : undefined;
    if (!this.secret && !this.jwks) throw new Error('TokenVerifier needs a secret or a JWKS URL');
  }

  async verify(token: string): Promise<Principal> {
    const known = this.verified.get(token);
    if (known) {
      if (Date.now() < known.validUntilMs) return known.principal;
      this.verified.delete(token);
    }
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
      const principal = Object.freeze(principalFromClaims(payload));
      if (!providerKeys) this.remember(token, principal, payload);
      return principal;
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

  private remember(token: string, principal: Principal, claims: JWTPayload): void {
    const validUntilMs = Math.min(claims.exp!, claims.iat! + this.options.maxAgeSeconds) * 1000;
    this.verified.set(token, { principal, validUntilMs });
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
