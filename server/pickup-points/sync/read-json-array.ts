import { JSONParser } from "@streamparser/json";

/**
 * Reads a JSON array from a byte stream one element at a time, handing them on in batches: the feed is never whole in
 * memory (Packeta's lists all of Europe's points). The next chunk is read only after the batch before it is written,
 * so a slow database slows the download rather than filling memory. Anything but a complete array throws.
 */
export async function readJsonArray(
  body: AsyncIterable<Uint8Array>,
  batchSize: number,
  onBatch: (items: unknown[]) => Promise<void>,
): Promise<number> {
  const parser = new JSONParser({ paths: ["$.*"], keepStack: false });
  let pending: unknown[] = [];
  let count = 0;
  let started = false;
  let failure: Error | undefined;
  parser.onValue = ({ value }) => {
    pending.push(value);
    count += 1;
  };
  parser.onError = (error) => {
    failure = error;
  };
  for await (const chunk of body) {
    if (!started) {
      const first = new TextDecoder().decode(chunk.subarray(0, 64)).trimStart()[0];
      if (first === undefined) continue;
      if (first !== "[") throw new Error("the feed is not a JSON array");
      started = true;
    }
    parser.write(chunk);
    if (failure) throw new Error(`the feed is not valid JSON: ${failure.message}`);
    if (pending.length >= batchSize) {
      const batch = pending;
      pending = [];
      await onBatch(batch);
    }
  }
  if (!started) throw new Error("the feed is empty");
  if (!parser.isEnded) parser.end();
  if (failure) throw new Error(`the feed is not valid JSON: ${failure.message}`);
  if (pending.length > 0) await onBatch(pending);
  return count;
}
