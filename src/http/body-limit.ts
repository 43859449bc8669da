export const BODY_LIMIT_KIB = 32;
export const BODY_LIMIT_BYTES = BODY_LIMIT_KIB * 1024;
