/**
 * The largest request body accepted (413 above). A valid request with every field at its longest stays below it in
 * ASCII and two-byte UTF-8 (about 12 and 23 KB); only one with three- or four-byte characters in every field at once
 * goes over (see docs/interface.md, Limits).
 */
export const BODY_LIMIT_KIB = 32;
export const BODY_LIMIT_BYTES = BODY_LIMIT_KIB * 1024;
