/** Every database wait is bounded, so an unreachable database answers 503 instead of hanging a request. */
export const DATABASE_TIMEOUT_MS = 4000;
