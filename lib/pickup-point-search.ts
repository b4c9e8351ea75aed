/**
 * The shortest word a pickup-point search can look up by name (pg_trgm extracts no trigram from `%ab%`, so shorter
 * words alone would read the whole directory): the service refuses a `q` of shorter words only, unless `near` or `zip`
 * narrows it, and the picker waits for such a word before it searches.
 */
export const MIN_INDEXED_WORD = 3;

/** Whether `text` holds a word (a run of letters or digits) the search can look up by. */
export const hasIndexedWord = (text: string): boolean =>
  new RegExp(`[\\p{L}\\p{N}]{${MIN_INDEXED_WORD},}`, "u").test(text);
