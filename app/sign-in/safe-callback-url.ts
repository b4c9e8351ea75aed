/** Where to go after signing in: a path on this site only, so a crafted link cannot send users elsewhere. */
export function safeCallbackUrl(value: string | string[] | undefined): string {
  const url = Array.isArray(value) ? value[0] : value;
  if (!url || !url.startsWith("/") || url.startsWith("//") || url.startsWith("/\\")) return "/dashboard";
  return url;
}
