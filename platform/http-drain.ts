import type { Server, ServerResponse } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';

export type HttpDrain = Readonly<{
  /**
   * Stops taking connections and resolves once every connection is closed, each request received
   * (before or during the drain) answered first.
   */
  drain: () => Promise<void>;
}>;

/**
 * Follows an HTTP server's connections and answers from now on, so that a later drain knows which
 * connections are busy. Call it right after `listen`.
 *
 * Why not `server.close()` + `closeIdleConnections()`: Node counts a keep-alive connection as idle
 * from the moment its last answer is sent, so a request the client has just sent on it (already on
 * the wire, not yet parsed) is cut with a reset. Here an open connection is never cut while it may
 * carry a request: each answer from now on says `Connection: close`, so a busy connection closes
 * right after its answer, and a request arriving on an idle one is answered before it closes. An
 * idle connection is left to its keep-alive timeout, the one the server announced to its clients
 * (`Keep-Alive: timeout=5`): clients that honour it close it first, so it never races a request.
 */
export function trackHttpServer(server: Server): HttpDrain {
  const sockets = new Set<Socket>();
  const answering = new Set<ServerResponse>();
  let draining = false;
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  // Before the application's own listener, so that the header is set before any answer is written.
  server.prependListener('request', (_request, response: ServerResponse) => {
    answering.add(response);
    response.once('close', () => answering.delete(response));
    if (draining) closeAfterAnswer(response);
  });

  const drain = () =>
    new Promise<void>((resolve) => {
      draining = true;
      for (const response of answering) closeAfterAnswer(response);
      // Past the keep-alive timeout (plus a second for a timer that fires late), what is left and
      // answers nothing (a client that never sends, or sends half a request) is closed.
      const lastCall = setTimeout(() => {
        for (const socket of sockets) {
          if (![...answering].some((response) => response.socket === socket)) socket.destroy();
        }
      }, server.keepAliveTimeout + 1000);
      // net's close, not http's: http's also cuts the connections it counts as idle (see above).
      NetServer.prototype.close.call(server, () => {
        clearTimeout(lastCall);
        resolve();
      });
    });
  return { drain };
}

/** The connection closes once this answer is sent (when its headers are not sent yet). */
function closeAfterAnswer(response: ServerResponse): void {
  if (!response.headersSent) response.setHeader('connection', 'close');
}
