import { listenUrl } from './listen-url';

describe('the address in the API’s "listening on" log line', () => {
  it.each([
    [{ address: '127.0.0.1', family: 'IPv4', port: 3000 }, 'http://127.0.0.1:3000'],
    [{ address: '::1', family: 'IPv6', port: 3000 }, 'http://[::1]:3000'],
    [
      { address: '0.0.0.0', family: 'IPv4', port: 8080 },
      'http://0.0.0.0:8080 (every network interface)',
    ],
    [{ address: '::', family: 'IPv6', port: 80 }, 'http://[::]:80 (every network interface)'],
  ])('%j → %s', (address, url) => {
    expect(listenUrl(address)).toBe(url);
  });
});
