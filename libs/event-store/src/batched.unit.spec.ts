import { batched } from './batched';

async function* source(items: number[], pauseAfter: number, pauseMs: number) {
  for (const [index, item] of items.entries()) {
    if (index === pauseAfter) await new Promise((resolve) => setTimeout(resolve, pauseMs));
    yield item;
  }
}

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

describe('batched', () => {
  it('cuts batches at the maximum size', async () => {
    expect(await collect(batched(source([1, 2, 3, 4, 5], -1, 0), 2, 1000))).toEqual([
      [1, 2],
      [3, 4],
      [5],
    ]);
  });

  it('emits what it has when the source pauses longer than the wait', async () => {
    expect(await collect(batched(source([1, 2, 3, 4], 2, 50), 10, 5))).toEqual([
      [1, 2],
      [3, 4],
    ]);
  });

  it('emits nothing for an empty source', async () => {
    expect(await collect(batched(source([], -1, 0), 10, 5))).toEqual([]);
  });
});
