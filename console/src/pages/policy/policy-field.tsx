import type { ComponentChildren } from 'preact';

type Props = Readonly<{
  id: string;
  label: string;
  hint: ComponentChildren;
  /** The API's messages about this field, shown under it. */
  errors: readonly string[] | undefined;
  children: (described: { id: string; invalid: boolean; describedBy: string }) => ComponentChildren;
}>;

/** A labelled input with its hint and the server's validation messages, tied to it for readers. */
export function PolicyFieldRow({ id, label, hint, errors, children }: Props) {
  const invalid = errors !== undefined && errors.length > 0;
  const describedBy = invalid ? `${id}-error ${id}-hint` : `${id}-hint`;
  return (
    <div class={`field${invalid ? ' invalid' : ''}`}>
      <label for={id}>{label}</label>
      {children({ id, invalid, describedBy })}
      {invalid ? (
        <p id={`${id}-error`} class="field-error">
          {errors.join(' ')}
        </p>
      ) : null}
      <p id={`${id}-hint`} class="field-hint">
        {hint}
      </p>
    </div>
  );
}
