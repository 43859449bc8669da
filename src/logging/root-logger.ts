/** The one pino logger of the application: Nest's own logs and the per-request lines both write through it. */
export const ROOT_LOGGER = Symbol('ROOT_LOGGER');
