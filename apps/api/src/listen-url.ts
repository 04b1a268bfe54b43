import type { AddressInfo } from 'node:net';

/**
 * The URL the server really listens on, as its log line says it: the bound address, never a
 * friendlier name (a log that says localhost while the port is open to the network misleads).
 */
export function listenUrl(address: AddressInfo): string {
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const everywhere = address.address === '0.0.0.0' || address.address === '::';
  return `http://${host}:${address.port}${everywhere ? ' (every network interface)' : ''}`;
}
