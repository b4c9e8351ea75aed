/** The settings textarea as an object, or the message to show under it. Empty means no settings. */
export function parseSettings(text: string): { settings: Record<string, unknown> } | { error: string } {
  if (!text.trim()) return { settings: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { error: 'Settings must be valid JSON, e.g. { "trackingStepMinutes": 60 }.' };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return { error: "Settings must be a JSON object: { … }." };
  return { settings: value as Record<string, unknown> };
}
