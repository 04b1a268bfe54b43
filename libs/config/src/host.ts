import { isIP } from 'node:net';

/** Where the API listens unless HOST says otherwise: this machine only. */
export const DEFAULT_HOST = '127.0.0.1';

/** An IP address or a host name (letters, digits, dots and hyphens). */
export function isHost(value: string): boolean {
  return isIP(value) !== 0 || /^[A-Za-z0-9](?:[A-Za-z0-9.-]{0,252}[A-Za-z0-9])?$/.test(value);
}

/**
 * A listener on this address is reachable from this machine only: 127.0.0.0/8, ::1 (also written
 * as an IPv4-mapped address) or `localhost`.
 */
export function isLoopbackHost(host: string): boolean {
  const value = host.toLowerCase().replace(/^\[|\]$/g, '');
  return (
    value === 'localhost' ||
    value === '::1' ||
    /^(::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(value)
  );
}
