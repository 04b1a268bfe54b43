import { createContext, type ComponentChildren } from 'preact';
import { useContext, useEffect, useMemo, useState } from 'preact/hooks';
import { en, type Messages } from './en';
import { fr } from './fr';

export type Locale = 'fr' | 'en';
export const LOCALES: readonly Locale[] = ['fr', 'en'];
const MESSAGES: Record<Locale, Messages> = { fr, en };
const LOCALE_KEY = 'engram.console.locale';

type I18n = Readonly<{ locale: Locale; t: Messages; setLocale: (locale: Locale) => void }>;

const I18nContext = createContext<I18n>({ locale: 'en', t: en, setLocale: () => undefined });

/** The chosen language, else the browser's (French for any fr-*), else English. */
export function initialLocale(): Locale {
  const saved = localStorage.getItem(LOCALE_KEY);
  if (saved === 'fr' || saved === 'en') return saved;
  return navigator.language.toLowerCase().startsWith('fr') ? 'fr' : 'en';
}

export function I18nProvider({ children }: { children: ComponentChildren }) {
  const [locale, setLocale] = useState<Locale>(initialLocale);
  useEffect(() => {
    document.documentElement.lang = locale;
    localStorage.setItem(LOCALE_KEY, locale);
  }, [locale]);
  const value = useMemo(() => ({ locale, t: MESSAGES[locale], setLocale }), [locale]);
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export function useI18n(): I18n {
  return useContext(I18nContext);
}
