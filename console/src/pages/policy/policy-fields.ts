import type { MemoryPolicy } from '../../api/types';

/** The fields of the memory policy the page edits, in the order it shows them. */
export const POLICY_FIELDS = [
  'reviewMode',
  'autoApproveAbove',
  'pendingTtlDays',
  'liveWindow',
  'summaryBatch',
  'userMemoryCap',
  'timeZone',
  'locale',
  'llmCallsPerUserPerDay',
] as const;
export type PolicyField = (typeof POLICY_FIELDS)[number];

/** What the form holds: each field as its input's text. */
export type PolicyForm = Record<PolicyField, string>;

/** Numbers the policy may leave unset: an empty input removes them (null). */
const OPTIONAL_NUMBERS: readonly PolicyField[] = ['autoApproveAbove', 'llmCallsPerUserPerDay'];
const NUMBERS: readonly PolicyField[] = [
  'autoApproveAbove',
  'pendingTtlDays',
  'liveWindow',
  'summaryBatch',
  'userMemoryCap',
  'llmCallsPerUserPerDay',
];

export function formOf(policy: MemoryPolicy): PolicyForm {
  const form = {} as PolicyForm;
  for (const field of POLICY_FIELDS) {
    const value: string | number | undefined = policy[field];
    form[field] = value === undefined ? '' : String(value);
  }
  return form;
}

/**
 * The PUT body: only the fields that changed (the API keeps the others). The API validates: a text
 * that is not a number is sent as it is, so the answer names the field and its rule.
 */
export function changesOf(initial: PolicyForm, form: PolicyForm): Record<string, unknown> {
  const changes: Record<string, unknown> = {};
  for (const field of POLICY_FIELDS) {
    const text = form[field].trim();
    if (text === initial[field]) continue;
    if (!NUMBERS.includes(field)) changes[field] = text;
    else if (text === '' && OPTIONAL_NUMBERS.includes(field)) changes[field] = null;
    else changes[field] = text !== '' && Number.isFinite(Number(text)) ? Number(text) : text;
  }
  return changes;
}

/**
 * A validation 400's message, by field: the API joins one message per field and rule with "; ", each
 * naming its field first ("pendingTtlDays must be …").
 */
export function messagesByField(message: string): {
  byField: Partial<Record<PolicyField, string[]>>;
  other: string[];
} {
  const byField: Partial<Record<PolicyField, string[]>> = {};
  const other: string[] = [];
  for (const part of message.split('; ')) {
    const field = POLICY_FIELDS.find((name) => part.startsWith(`${name} `));
    if (field) (byField[field] ??= []).push(part);
    else other.push(part);
  }
  return { byField, other };
}
