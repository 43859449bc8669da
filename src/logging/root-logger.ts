/** The pino logger of Nest's own logs, errors and warnings (Loggers.root). */
export const ROOT_LOGGER = Symbol('ROOT_LOGGER');
/** The pino logger of the edge's line per request (Loggers.access). */
export const ACCESS_LOGGER = Symbol('ACCESS_LOGGER');
