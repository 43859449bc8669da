/** The largest request body accepted: the largest valid request, in UTF-8, stays well below it. */
export const BODY_LIMIT_KIB = 64;
export const BODY_LIMIT_BYTES = BODY_LIMIT_KIB * 1024;
