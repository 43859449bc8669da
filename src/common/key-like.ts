// Secret keys, SHA-256 digests and tokens run to 40 characters and more; nothing else logged does (UUIDs are 36, paths
// and stack frames break at / and .).
export const KEY_LIKE_LENGTH = 40;

/** Every key-like run of a text, for String.replace (which starts a global expression from the beginning each time). */
export const KEY_LIKE_RUNS = /[A-Za-z0-9_-]{40,}/g;

const KEY_LIKE_RUN = new RegExp(KEY_LIKE_RUNS.source);

/** Whether a text holds a run the logs redact as key-like: such a text is never kept. */
export function holdsKeyLikeRun(text: string): boolean {
  return text.length >= KEY_LIKE_LENGTH && KEY_LIKE_RUN.test(text);
}
