/** One page of a list the API answers: its items and the cursor of the next page (null at the end). */
export type Page<T> = Readonly<{ items: readonly T[]; nextCursor?: string | null }>;

/**
 * Every item of a paginated list, fetching the next page only when the previous one is consumed:
 * `for await (const item of paginate((cursor) => …))`.
 */
export async function* paginate<T>(
  fetchPage: (cursor: string | undefined) => Promise<Page<T>>,
): AsyncGenerator<T, void, undefined> {
  let cursor: string | undefined;
  do {
    const page = await fetchPage(cursor);
    yield* page.items;
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
}
