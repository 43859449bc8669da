export const ROOT_LOGGER = Symbol('ROOT_LOGGER');
export const ACCESS_LOGGER = Symbol('ACCESS_LOGGER');
