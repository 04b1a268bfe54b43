import { localeFromAcceptLanguage } from './accept-language';

describe('localeFromAcceptLanguage', () => {
  it.each([
    ['fr-FR,fr;q=0.9,en-US;q=0.8,en;q=0.7', 'fr'],
    ['en-GB,en;q=0.9,fr;q=0.8', 'en'],
    ['de-DE,de;q=0.9,en;q=0.5,fr;q=0.4', 'en'],
    ['en;q=0.2, fr;q=0.8', 'fr'],
    ['FR', 'fr'],
    ['fr;q=0, en', 'en'],
    ['de, *;q=0.5', null],
    ['*', null],
    ['', null],
    [undefined, null],
    [';;,q=,fr;q=abc', 'fr'],
  ] as const)('%s → %s', (header, locale) => {
    expect(localeFromAcceptLanguage(header)).toBe(locale);
  });
});
