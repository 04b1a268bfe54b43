/** A polite live region: screen readers announce what changed (refreshes, decisions, errors). */
export function LiveMessage({
  message,
  tone = 'info',
}: {
  message: string;
  tone?: 'info' | 'error';
}) {
  return (
    <p
      class={`live ${tone}`}
      role={tone === 'error' ? 'alert' : 'status'}
      aria-live={tone === 'error' ? 'assertive' : 'polite'}
    >
      {message}
    </p>
  );
}
