/**
 * A fake courier run as its own process (`fake-server-main.ts` of each courier): prints one JSON line with its URL
 * once it accepts calls, and closes on SIGTERM or SIGINT.
 */
export function serveUntilSignal(fake: { url: string; close: () => Promise<void> }): void {
  process.stdout.write(`${JSON.stringify({ url: fake.url })}\n`);
  let closing = false;
  const stop = () => {
    if (closing) return;
    closing = true;
    void fake.close().then(() => process.exit(0));
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}
