/**
 * One GET of a feed, with a deadline for the answer's head and an idle limit between its chunks (a download of all
 * of Europe's points may take a minute, a stalled one must not hold the sync forever). Errors name the feed, never
 * its URL: Packeta's carries the API key in its path.
 */
export class FeedError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = "FeedError";
  }
}

export type FeedResponse = { status: number; headers: Headers; body: AsyncIterable<Uint8Array> };

export async function fetchFeed(
  label: string,
  url: string,
  init: { headers?: Record<string, string>; method?: string; body?: string } = {},
  idleMs = 60_000,
): Promise<FeedResponse> {
  const controller = new AbortController();
  let timer = setTimeout(() => controller.abort(), idleMs);
  const touch = () => {
    clearTimeout(timer);
    timer = setTimeout(() => controller.abort(), idleMs);
  };
  let response: Response | undefined;
  // A second try when the first found no answer at all: a kept-alive connection the server had just closed (a
  // reset before any byte) says nothing about the feed. Only before an answer: a body cut half-way is the sync's failure.
  for (let attempt = 1; !response; attempt++) {
    try {
      response = await fetch(url, { ...init, signal: controller.signal });
    } catch (error) {
      if (attempt < 2 && !controller.signal.aborted) continue;
      clearTimeout(timer);
      throw new FeedError(`${label}: no answer (${controller.signal.aborted ? "timed out" : causeOf(error)})`);
    }
  }
  touch();
  const stream = response.body;
  async function* body(): AsyncIterable<Uint8Array> {
    try {
      if (!stream) return;
      for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) {
        touch();
        yield chunk;
      }
    } catch (error) {
      throw new FeedError(`${label}: the answer broke off (${controller.signal.aborted ? "stalled" : causeOf(error)})`);
    } finally {
      clearTimeout(timer);
    }
  }
  return { status: response.status, headers: response.headers, body: body() };
}

/** The reason of a failed fetch without its URL (undici puts the cause's code and message in `cause`). */
function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}

/** The answer's text (its first 64 KiB: a token or a refusal), read to the end so its connection can be reused. */
export async function drain(response: FeedResponse): Promise<string> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body)
    if (size < 65_536) {
      chunks.push(chunk);
      size += chunk.length;
    }
  return new TextDecoder().decode(Buffer.concat(chunks));
}
