import type { SearchHit } from "@lineage/core";

/**
 * Hits best first (score descending, then id ascending), ordered lazily: a
 * heap costs linear time up front and a logarithm per hit taken, so a page
 * of 10 out of 50 000 matches does not pay for sorting them all.
 */
export function* bestFirst(ids: Int32Array, scores: Float64Array): Generator<SearchHit, void, undefined> {
  const heap = new Uint32Array(ids.length);
  for (let i = 0; i < heap.length; i++) heap[i] = i;
  const better = (a: number, b: number) => scores[a]! > scores[b]! || (scores[a] === scores[b] && ids[a]! < ids[b]!);
  const siftDown = (from: number, size: number) => {
    let parent = from;
    for (;;) {
      const left = 2 * parent + 1;
      if (left >= size) return;
      const right = left + 1;
      const child = right < size && better(heap[right]!, heap[left]!) ? right : left;
      if (!better(heap[child]!, heap[parent]!)) return;
      const swap = heap[parent]!;
      heap[parent] = heap[child]!;
      heap[child] = swap;
      parent = child;
    }
  };
  let size = heap.length;
  for (let i = (size >>> 1) - 1; i >= 0; i--) siftDown(i, size);
  while (size > 0) {
    const top = heap[0]!;
    heap[0] = heap[--size]!;
    siftDown(0, size);
    yield { id: ids[top]!, score: scores[top]! };
  }
}
