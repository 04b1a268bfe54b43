import { useI18n } from '../i18n/i18n';

/** What an admin page shows to a user who is not one (the API would answer 403 anyway). */
export function AdminsOnly({ id, title }: { id: string; title: string }) {
  const { t } = useI18n();
  return (
    <section aria-labelledby={id}>
      <h1 id={id}>{title}</h1>
      <p>{t.adminsOnly}</p>
    </section>
  );
}
