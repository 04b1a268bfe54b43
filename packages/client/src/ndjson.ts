/** The lines of a newline-delimited JSON body, parsed one at a time as they arrive. */
export async function* ndjsonLines<T>(
  body: ReadableStream<Uint8Array> | null,
): AsyncGenerator<T, void, undefined> {
  if (body === null) return;
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      buffered += done ? decoder.decode() : decoder.decode(value, { stream: true });
      const lines = buffered.split('\n');
      buffered = done ? '' : (lines.pop() ?? '');
      for (const line of lines) if (line.trim() !== '') yield JSON.parse(line) as T;
      if (done) return;
    }
  } finally {
    // The caller stopped early (break): no need for the rest.
    await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}
