// No imports: proxy.ts reads it on every page request.

/** `value` when it is exactly an http(s) origin (what a browser puts in `Origin`), else null. */
export function exactOrigin(value: string | null | undefined): string | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return /^https?:$/.test(url.protocol) && url.origin === value ? value : null;
  } catch {
    return null;
  }
}
