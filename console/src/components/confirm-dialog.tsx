import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

type Props = Readonly<{
  open: boolean;
  title: string;
  confirmLabel: string;
  cancelLabel: string;
  danger?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
  children?: ComponentChildren;
}>;

/**
 * A modal built on the native <dialog>: focus moves in and is trapped, Escape cancels, and focus
 * returns to the button that opened it.
 */
export function ConfirmDialog(props: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (props.open && !element.open) element.showModal();
    if (!props.open && element.open) element.close();
  }, [props.open]);
  return (
    <dialog
      ref={dialog}
      aria-labelledby="confirm-title"
      onCancel={(event) => {
        event.preventDefault();
        props.onCancel();
      }}
    >
      <form
        method="dialog"
        onSubmit={(event) => {
          event.preventDefault();
          props.onConfirm();
        }}
      >
        <h2 id="confirm-title">{props.title}</h2>
        {props.children}
        <div class="dialog-buttons">
          <button type="button" onClick={props.onCancel}>
            {props.cancelLabel}
          </button>
          <button type="submit" class={props.danger ? 'danger' : 'primary'}>
            {props.confirmLabel}
          </button>
        </div>
      </form>
    </dialog>
  );
}
