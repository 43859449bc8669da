import { SetMetadata } from '@nestjs/common';

/** The throttler (RateLimitModule) that counts a client's changing requests, all its keys together. */
export const WRITES_THROTTLER_NAME = 'writes';

export const TOO_MANY_WRITES_MESSAGE = 'Too many changes for this client, retry later';

export const WRITE_ROUTE = 'rate-limit:write-route';
export const COUNTED_WHEN_RUN_WITH = 'rate-limit:counted-when-run-with';

/**
 * The route changes something: the keys of one client together may make RATE_LIMIT_WRITES_PER_CREDENTIAL such requests
 * a window (the guard that authenticates them names the client as the request's writer).
 */
export const ClientWrite = () => SetMetadata(WRITE_ROUTE, true);

/**
 * On this route a request carrying `header` may be answered again rather than run: it is counted as a write only when
 * it runs, by whoever runs it calling request.countWrite.
 */
export const CountedWhenRunWith = (header: string) => SetMetadata(COUNTED_WHEN_RUN_WITH, header.toLowerCase());
