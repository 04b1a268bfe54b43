import { WrittenPositions, scopeKeys } from './read-your-writes';
import {
  retryPolicy,
  type BodyOf,
  type Method,
  type QueryOf,
  type ResponseOf,
  type Route,
  type RoutePath,
} from './routes';
import { Transport, type TransportOptions } from './transport';

export type EngramClientOptions = TransportOptions & {
  /** The workspace every call is made in (the token's `ws`). */
  readonly workspace: string;
  /**
   * Read-your-writes (default true): the client remembers the `position` each user's writes were
   * answered with and sends it as `minPosition` on that user's reads, which then wait (≤ 2 s) until
   * the read models hold it. `false` reads whatever the read models hold now.
   */
  readonly readYourWrites?: boolean;
};

export type CallInput<P extends RoutePath, M extends Method> = {
  /** The user the call is about: fills `{userId}` and names whose writes a read must see. */
  readonly userId?: string;
  readonly params?: Readonly<Record<string, string>>;
  readonly query?: Omit<QueryOf<P, M>, 'minPosition'>;
  readonly body?: BodyOf<P, M>;
};

/** What the client and its per-user views share: the transport and the positions written. */
export class Caller {
  readonly transport: Transport;
  readonly workspace: string;
  private readonly positions = new WrittenPositions();
  private readonly readYourWrites: boolean;

  constructor(options: EngramClientOptions) {
    this.transport = new Transport(options);
    this.workspace = options.workspace;
    this.readYourWrites = options.readYourWrites ?? true;
  }

  async call<P extends RoutePath, M extends Method>(
    route: Route<P, M>,
    input: CallInput<P, M> = {},
  ): Promise<ResponseOf<P, M>> {
    const request = this.request(route, input);
    const answer = await this.transport.json<ResponseOf<P, M>>(request);
    if (route.kind !== 'read' && typeof answer === 'object' && answer !== null) {
      this.positions.remember(
        this.keys(route, input)[0],
        (answer as { position?: unknown }).position,
      );
    }
    return answer;
  }

  /** The raw answer (a stream), after the same retries; no position is remembered. */
  async stream<P extends RoutePath, M extends Method>(
    route: Route<P, M>,
    input: CallInput<P, M> = {},
  ): Promise<Response> {
    return this.transport.send({ ...this.request(route, input), stream: true });
  }

  private request<P extends RoutePath, M extends Method>(
    route: Route<P, M>,
    input: CallInput<P, M>,
  ) {
    const minPosition =
      (route.kind === 'read' || route.kind === 'tool') && this.readYourWrites
        ? this.positions.atLeast(this.keys(route, input))
        : undefined;
    return {
      method: route.method,
      route: route.path,
      params: {
        ws: this.workspace,
        ...(input.userId === undefined ? {} : { userId: input.userId }),
        ...input.params,
      },
      query: {
        ...(input.query as Record<string, string | number | boolean | undefined> | undefined),
        ...(minPosition === undefined ? {} : { minPosition }),
      },
      body: input.body,
      retry: retryPolicy(route.kind),
    };
  }

  private keys(route: Route, input: { userId?: string }): string[] {
    return scopeKeys(route.scope, this.workspace, input.userId);
  }
}
