import { LOCALES, useI18n, type Locale } from '../i18n/i18n';

const NAMES: Record<Locale, string> = { fr: 'Français', en: 'English' };

export function LanguageSwitcher() {
  const { t, locale, setLocale } = useI18n();
  return (
    <p class="language">
      <label for="language">{t.language}</label>
      <select
        id="language"
        value={locale}
        onChange={(event) => setLocale(event.currentTarget.value as Locale)}
      >
        {LOCALES.map((option) => (
          <option key={option} value={option} lang={option}>
            {NAMES[option]}
          </option>
        ))}
      </select>
    </p>
  );
}
