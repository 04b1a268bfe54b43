import { useEffect, useState } from 'preact/hooks';
import { ApiError } from '../../api/api-error';
import { REVIEW_MODES } from '../../api/types';
import { useSignedIn } from '../../auth/session-context';
import { AdminsOnly } from '../../components/admins-only';
import { LiveMessage } from '../../components/live-message';
import { LOCALES, useI18n } from '../../i18n/i18n';
import { PolicyFieldRow } from './policy-field';
import {
  changesOf,
  formOf,
  messagesByField,
  POLICY_FIELDS,
  type PolicyField,
  type PolicyForm,
} from './policy-fields';

type Message = { text: string; tone: 'info' | 'error' };

/** Numeric inputs: the browser's bounds are hints only (noValidate); the API's rules decide. */
const BOUNDS: Partial<Record<PolicyField, { min: number; max: number; step: number }>> = {
  autoApproveAbove: { min: 0, max: 1, step: 0.01 },
  pendingTtlDays: { min: 1, max: 365, step: 1 },
  liveWindow: { min: 1, max: 200, step: 1 },
  summaryBatch: { min: 1, max: 200, step: 1 },
  userMemoryCap: { min: 1, max: 10000, step: 1 },
  llmCallsPerUserPerDay: { min: 1, max: 1_000_000, step: 1 },
};

/** The workspace's memory policy, every field, with the API's validation messages by field. */
export function PolicyPage() {
  const { t } = useI18n();
  const { api, isAdmin, setPolicy } = useSignedIn();
  const [initial, setInitial] = useState<PolicyForm | null>(null);
  const [form, setForm] = useState<PolicyForm | null>(null);
  const [errors, setErrors] = useState<Partial<Record<PolicyField, string[]>>>({});
  const [message, setMessage] = useState<Message | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!isAdmin) return;
    api.memoryPolicy().then(
      (policy) => {
        setInitial(formOf(policy));
        setForm(formOf(policy));
      },
      (failure: Error) => setMessage({ text: failure.message, tone: 'error' }),
    );
  }, [api, isAdmin]);

  if (!isAdmin) return <AdminsOnly id="policy-title" title={t.policy.title} />;

  const save = async () => {
    if (!initial || !form) return;
    const changes = changesOf(initial, form);
    if (Object.keys(changes).length === 0) {
      setMessage({ text: t.policy.unchanged, tone: 'info' });
      return;
    }
    setBusy(true);
    try {
      const saved = await api.changeMemoryPolicy(changes);
      setInitial(formOf(saved));
      setForm(formOf(saved));
      setErrors({});
      setPolicy(saved);
      setMessage({ text: t.policy.saved, tone: 'info' });
    } catch (failure) {
      if (failure instanceof ApiError && failure.status === 400) {
        const { byField, other } = messagesByField(failure.message);
        setErrors(byField);
        setMessage({ text: [t.policy.invalid, ...other].join(' '), tone: 'error' });
      } else {
        setMessage({ text: (failure as Error).message, tone: 'error' });
      }
    } finally {
      setBusy(false);
    }
  };

  const edit = (field: PolicyField) => (event: { currentTarget: { value: string } }) => {
    const value = event.currentTarget.value;
    setForm((current) => (current ? { ...current, [field]: value } : current));
  };

  return (
    <section aria-labelledby="policy-title">
      <h1 id="policy-title">{t.policy.title}</h1>
      <p class="intro">{t.policy.intro}</p>
      <LiveMessage message={message?.text ?? ''} tone={message?.tone} />
      {form === null ? (
        <p>{t.loading}</p>
      ) : (
        <form
          class="policy-form"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            void save();
          }}
        >
          {POLICY_FIELDS.map((field) => (
            <PolicyFieldRow
              key={field}
              id={`policy-${field}`}
              label={t.policy.fields[field]}
              hint={
                field === 'userMemoryCap' ? (
                  <>
                    {t.policy.hints.userMemoryCap} <strong>{t.policy.capEviction}</strong>
                  </>
                ) : (
                  t.policy.hints[field]
                )
              }
              errors={errors[field]}
            >
              {({ id, invalid, describedBy }) => {
                const common = {
                  id,
                  name: field,
                  disabled: busy,
                  'aria-invalid': invalid,
                  'aria-describedby': describedBy,
                };
                if (field === 'reviewMode' || field === 'locale') {
                  const options = field === 'reviewMode' ? REVIEW_MODES : LOCALES;
                  return (
                    <select {...common} value={form[field]} onChange={edit(field)}>
                      {options.map((option) => (
                        <option key={option} value={option}>
                          {field === 'reviewMode'
                            ? t.policy.reviewModes[option as (typeof REVIEW_MODES)[number]]
                            : option}
                        </option>
                      ))}
                    </select>
                  );
                }
                const bounds = BOUNDS[field];
                return bounds ? (
                  <input
                    {...common}
                    type="number"
                    {...bounds}
                    value={form[field]}
                    onInput={edit(field)}
                  />
                ) : (
                  <input
                    {...common}
                    type="text"
                    autocomplete="off"
                    value={form[field]}
                    onInput={edit(field)}
                  />
                );
              }}
            </PolicyFieldRow>
          ))}
          <p>
            <button type="submit" class="primary" disabled={busy}>
              {t.policy.save}
            </button>
          </p>
        </form>
      )}
    </section>
  );
}
